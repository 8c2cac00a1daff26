/**
 * The SDK's token cache, owned by one plugin. The SDK's default cache is a module-level singleton
 * shared by every Client with the same appId (@larksuiteoapi/node-sdk `utils/default-cache.ts`,
 * `client/token-manager.ts`), and the SDK never drops a token on 99991663; owning the cache lets
 * `refreshAuth` force a new tenant_access_token.
 * Implements the SDK's `Cache` interface (`get`/`set` with a namespace; `expire` is epoch ms).
 */
export class TokenCache {
  readonly #values = new Map<string, { value: unknown; expiresAt?: number }>();

  private key(key: string | symbol, namespace?: string): string {
    return `${namespace ?? ''}/${key.toString()}`;
  }

  async get(key: string | symbol, options?: { namespace?: string }): Promise<unknown> {
    const entry = this.#values.get(this.key(key, options?.namespace));
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) return undefined;
    return entry.value;
  }

  async set(key: string | symbol, value: unknown, expiresAt?: number, options?: { namespace?: string }): Promise<boolean> {
    this.#values.set(this.key(key, options?.namespace), { value, expiresAt });
    return true;
  }

  /** Forgets every cached token: the next API call fetches a new one. */
  clear(): void {
    this.#values.clear();
  }

  /** Cached entries (for tests). */
  get size(): number {
    return this.#values.size;
  }
}
