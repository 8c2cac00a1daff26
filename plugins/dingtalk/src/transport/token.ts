import { DingTalkApiError } from './errors.js';
import type { DingTalkHttp } from './http.js';
import { DINGTALK_API_ROUTES } from './routes.js';

/** Refresh this long before `expireIn` runs out (DingTalk-Real-AI connector: 5 min before the 2 h expiry). */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;

/** Fetches a token: `accessToken` and its lifetime `expireIn` in seconds. */
export type TokenSource = () => Promise<{ accessToken?: unknown; expireIn?: unknown }>;

/**
 * The app's access token from `POST /v1.0/oauth2/accessToken` (`{appKey, appSecret}` →
 * `{accessToken, expireIn}` in seconds), cached until shortly before it expires: 5 min early, or a
 * tenth of the lifetime when that is shorter. Concurrent callers share one request.
 * The token and the secret never appear in errors or logs.
 */
export class AccessTokenCache {
  // `#private` fields: unlike TypeScript's `private`, they stay out of `util.inspect`,
  // `JSON.stringify` and object spreads, so the secret and the token cannot leak through them.
  #token: { value: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;
  /** Bumped by {@link invalidate} so an answer that was already on its way is not cached. */
  #epoch = 0;
  readonly #http: DingTalkHttp;
  readonly #appKey: string;
  readonly #appSecret: string;
  /** Epoch ms. */
  readonly #now: () => number;
  /** Where tokens come from instead of `POST /v1.0/oauth2/accessToken` (e.g. the old-style `gettoken`). */
  readonly #source: TokenSource | undefined;

  constructor(http: DingTalkHttp, appKey: string, appSecret: string, now: () => number = Date.now, source?: TokenSource) {
    this.#http = http;
    this.#appKey = appKey;
    this.#appSecret = appSecret;
    this.#now = now;
    this.#source = source;
  }

  /**
   * A valid token, fetched when none is cached or the cached one is about to expire.
   * @throws DingTalkApiError (e.g. 400 `invalidClientIdOrSecret`) or DingTalkNetworkError.
   */
  async get(): Promise<string> {
    if (this.#token && this.#now() < this.#token.refreshAt) return this.#token.value;
    this.#pending ??= this.fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Drops the cached token; the next {@link get} fetches a new one. */
  invalidate(): void {
    this.#token = undefined;
    this.#pending = undefined;
    this.#epoch += 1;
  }

  private async fetch(): Promise<string> {
    const epoch = this.#epoch;
    const startedAt = this.#now();
    const body = this.#source ? await this.#source() : await this.#http.call(DINGTALK_API_ROUTES.accessToken, { appKey: this.#appKey, appSecret: this.#appSecret });
    if (typeof body.accessToken !== 'string' || body.accessToken === '') {
      throw new DingTalkApiError('token', 200, 'token.missing', 'the answer had no accessToken');
    }
    const lifetimeMs = (typeof body.expireIn === 'number' && body.expireIn > 0 ? body.expireIn : 7200) * 1000;
    const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 10);
    if (epoch === this.#epoch) this.#token = { value: body.accessToken, refreshAt: startedAt + lifetimeMs - margin };
    return body.accessToken;
  }
}
