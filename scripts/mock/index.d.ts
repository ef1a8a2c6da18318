// Types of the mock's programmatic entry (`provider-api-clients/mock`).

export interface StartMockOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Names the name check answers `AlreadyExists` for, besides those of the spec's `AlreadyExists` examples. */
  takenNames?: string[];
  /** pino level of Prism's log on stderr; default 'silent'. */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /**
   * Host names answered besides loopback ones (localhost, 127.0.0.0/8, [::1]); any other
   * Host gets 403, against DNS rebinding. `'*'` answers every Host.
   */
  allowHosts?: string[];
  /**
   * Origins (`http://app.test:3000`) whose pages may change state (POST, PUT, PATCH,
   * DELETE); pages on any origin may read. Loopback origins always may; `'*'` allows all.
   */
  allowOrigins?: string[];
}

export interface MockRoute {
  api: string;
  operationId: string;
  method: string;
  path: string;
  /** The api-version (resource management) or the /api/vX.Y prefix (business data). */
  version: string;
}

export interface Mock {
  /** `http://127.0.0.1:<port>`: the base URL for both client families. */
  url: string;
  port: number;
  readonly routes: MockRoute[];
  /** Back to the state at start (taken names, no vendors or eTags seen); or other taken names. */
  reset(options?: { takenNames?: string[] }): void;
  /** Re-reads the bundled documents; on failure the previous ones stay served. */
  reload(): Promise<MockRoute[]>;
  close(options?: { graceMs?: number }): Promise<void>;
}

export function startMock(options?: StartMockOptions): Promise<Mock>;
