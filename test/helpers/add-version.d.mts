/** Adds `<api>@<to>` as a copy of the version folder `from` (relative to `dir`); returns the new folder, relative. */
export function addVersion(dir: string, options: { api: string; from: string; to: string }): Promise<string>;
/** Adds an optional property to a schema file (a visible change of the new version). */
export function addProperty(file: string, name: string, schema: string): Promise<void>;
