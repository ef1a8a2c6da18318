/**
 * Credentials: the bearer token of each attempt, from a fixed `token`, the caller's
 * `getToken()` or an Azure-shaped `credential` (cached until shortly before it expires).
 * A token is checked before it goes into a header; it never goes into a message.
 */

/** What `credential` takes: the shape of Azure's `TokenCredential` (no dependency on it). */
export interface TokenCredentialLike {
  getToken(scopes: string | string[], options?: { abortSignal?: AbortSignal }): Promise<{ token: string; expiresOnTimestamp: number } | null>;
}

// RFC 6750 b64token is stricter; visible ASCII without spaces is enough to rule out
// header injection and to keep Headers from throwing a message that quotes the value.
export const isToken = (value: unknown): value is string => typeof value === 'string' && /^[\x21-\x7e]+$/.test(value);

/** A cached token is renewed this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 2 * 60_000;

/**
 * `getToken` over a TokenCredential: its answer is cached until shortly before it
 * expires, and calls while a request is under way share it. A failed request is not
 * cached (the next call asks again).
 */
export function credentialGetToken(credential: TokenCredentialLike, scopes: string[]): () => Promise<string> {
  let cached: { token: string; expiresOnTimestamp: number } | undefined;
  let pending: Promise<string> | undefined;
  return () => {
    if (cached && Date.now() < cached.expiresOnTimestamp - TOKEN_REFRESH_MARGIN_MS) return Promise.resolve(cached.token);
    pending ??= Promise.resolve()
      .then(() => credential.getToken(scopes.length === 1 ? scopes[0]! : scopes))
      .then((answer) => {
        if (!answer || typeof answer.token !== 'string') throw new Error('the credential returned no token');
        cached = { token: answer.token, expiresOnTimestamp: Number(answer.expiresOnTimestamp) || 0 };
        return answer.token;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}
