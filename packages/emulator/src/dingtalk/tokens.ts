import { randomBytes } from 'node:crypto';
import type { Clock } from '../common/index.js';
import { failures } from './errors.js';

/**
 * App credentials and access tokens, per `POST /v1.0/oauth2/accessToken`
 * (open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app):
 * a valid pair gets `{accessToken, expireIn}`; asking again while the token is valid returns the
 * same token and extends it ("有效期内重复获取会返回相同结果并自动续期"); after expiry a new one.
 */

/** An app the emulator knows. */
export interface DingTalkAppCredentials {
  readonly appKey: string;
  readonly appSecret: string;
}

/** The app the emulator accepts when none are configured. */
export const DEFAULT_DINGTALK_APP: DingTalkAppCredentials = { appKey: 'dingemulatorapp', appSecret: 'emulator-app-secret' };

/** Default token lifetime in seconds (`expireIn: 7200`). */
export const DEFAULT_TOKEN_TTL_SECONDS = 7200;

interface TokenRecord {
  readonly token: string;
  readonly appKey: string;
  expiresAt: number;
}

/** Issues, checks and revokes access tokens with the emulator clock. */
export class DingTalkTokenRegistry {
  private readonly apps = new Map<string, string>();
  private readonly byToken = new Map<string, TokenRecord>();
  private readonly byApp = new Map<string, TokenRecord>();

  constructor(
    apps: readonly DingTalkAppCredentials[],
    private readonly clock: Clock,
    /** Token lifetime in seconds. */
    private readonly ttlSeconds: number = DEFAULT_TOKEN_TTL_SECONDS,
  ) {
    for (const app of apps) this.apps.set(app.appKey, app.appSecret);
  }

  /**
   * Answers a token request.
   * @throws 400 `invalidClientIdOrSecret` for an unknown pair.
   */
  issue(appKey: unknown, appSecret: unknown): { accessToken: string; expireIn: number } {
    if (typeof appKey !== 'string' || typeof appSecret !== 'string' || this.apps.get(appKey) !== appSecret) {
      throw failures.invalidClientIdOrSecret();
    }
    const now = this.clock();
    const current = this.byApp.get(appKey);
    if (current && current.expiresAt > now && this.byToken.has(current.token)) {
      current.expiresAt = now + this.ttlSeconds * 1000;
      return { accessToken: current.token, expireIn: this.ttlSeconds };
    }
    const record: TokenRecord = { token: randomBytes(16).toString('hex'), appKey, expiresAt: now + this.ttlSeconds * 1000 };
    this.byToken.set(record.token, record);
    this.byApp.set(appKey, record);
    return { accessToken: record.token, expireIn: this.ttlSeconds };
  }

  /**
   * The app a token belongs to.
   * @throws 400 `InvalidAuthentication` when the token is missing, unknown, revoked or expired.
   */
  check(token: string | undefined): string {
    const record = token ? this.byToken.get(token) : undefined;
    if (!record || record.expiresAt <= this.clock()) throw failures.invalidAuthentication();
    return record.appKey;
  }

  /** Revokes one token, or every token when none is given; returns how many were revoked. */
  revoke(token?: string): number {
    const victims = token === undefined ? [...this.byToken.values()] : [this.byToken.get(token)].filter((r): r is TokenRecord => !!r);
    for (const record of victims) {
      this.byToken.delete(record.token);
      if (this.byApp.get(record.appKey) === record) this.byApp.delete(record.appKey);
    }
    return victims.length;
  }

  /** Tokens currently valid (for read-back). */
  validTokens(): Array<{ token: string; appKey: string; expiresAt: number }> {
    const now = this.clock();
    return [...this.byToken.values()].filter((r) => r.expiresAt > now).map((r) => ({ ...r }));
  }
}
