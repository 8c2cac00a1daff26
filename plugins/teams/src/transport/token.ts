import { TeamsRequestError } from './routes.js';

/** The token endpoint refused the bot's credentials (or answered no token). */
export class TeamsTokenError extends Error {
  override readonly name = 'TeamsTokenError';
  constructor(
    readonly status: number,
    /** The OAuth `error` (`invalid_client`, `unauthorized_client`…). */
    readonly error: string,
  ) {
    super(`teams token endpoint: ${status} ${error}`);
  }
}

/** What {@link TeamsTokenSource} needs. */
export interface TeamsTokenOptions {
  readonly appId: string;
  readonly appPassword: string;
  /** Tenant of a single-tenant bot; absent: `botframework.com`. */
  readonly tenantId?: string;
  readonly loginUrl: string;
  readonly requestTimeoutMs: number;
  /** Epoch ms now (tests). */
  readonly now?: () => number;
}

/** Refresh this long before the token's `expires_in` runs out (ms). */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * The bot's bearer token for the Bot Connector: the OAuth 2.0 client-credentials grant
 * (`POST {loginUrl}/{tenant}/oauth2/v2.0/token`, `grant_type=client_credentials`, `scope=https://api.botframework.com/.default`,
 * https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication),
 * cached until five minutes before `expires_in` ends; concurrent callers share one request; `invalidate()`
 * drops it (the core's `refreshAuth` after a 401). The secret is only in the request body.
 */
export class TeamsTokenSource {
  readonly #options: TeamsTokenOptions;
  #cached: { token: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(options: TeamsTokenOptions) {
    this.#options = options;
  }

  /** A valid bearer token. @throws TeamsTokenError (refused), TeamsRequestError (no answer). */
  get(): Promise<string> {
    const now = (this.#options.now ?? Date.now)();
    if (this.#cached && this.#cached.refreshAt > now) return Promise.resolve(this.#cached.token);
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  invalidate(): void {
    this.#cached = undefined;
  }

  async #fetch(): Promise<string> {
    const { appId, appPassword, tenantId, loginUrl, requestTimeoutMs } = this.#options;
    const url = `${loginUrl.replace(/\/+$/, '')}/${encodeURIComponent(tenantId ?? 'botframework.com')}/oauth2/v2.0/token`;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: appId, client_secret: appPassword, scope: 'https://api.botframework.com/.default' });
    let response: Response;
    let body: { access_token?: string; expires_in?: number; error?: string } | undefined;
    try {
      response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(requestTimeoutMs) });
      body = (await response.json().catch(() => undefined)) as typeof body;
    } catch (error) {
      throw new TeamsRequestError('token', error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error);
    }
    if (!response.ok || typeof body?.access_token !== 'string') throw new TeamsTokenError(response.status, body?.error ?? 'no access_token');
    const lifetimeMs = (Number(body.expires_in) || 3600) * 1000;
    const now = (this.#options.now ?? Date.now)();
    this.#cached = { token: body.access_token, refreshAt: now + Math.max(lifetimeMs / 2, lifetimeMs - REFRESH_MARGIN_MS) };
    return body.access_token;
  }
}
