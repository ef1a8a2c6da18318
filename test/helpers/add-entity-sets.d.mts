/** The entity names `addEntitySets` uses for `count` sets. */
export function entityNames(count: number): string[];
/** Adds `count` entity sets (5 operations each) to a business-data version folder of the copy at `dir`; returns their names. */
export function addEntitySets(dir: string, options?: { version?: string; count?: number }): Promise<string[]>;
