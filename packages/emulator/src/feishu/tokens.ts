import type { Clock } from '../common/clock.js';
import { randomHex } from '../common/ids.js';
import { FeishuErrors, type FeishuError } from './codes.js';

/** A self-built app the emulator knows. */
export interface FeishuApp {
  readonly appId: string;
  readonly appSecret: string;
}

/** State of an issued tenant_access_token: `active` until it expires or is revoked. */
export type TokenState = 'active' | 'expired' | 'revoked';

/** An issued token, as shown by read-back (the token itself is test data, not a real secret). */
export interface IssuedToken {
  readonly token: string;
  readonly appId: string;
  /** Epoch ms. */
  readonly issuedAt: number;
  /** Epoch ms. */
  readonly expiresAt: number;
  readonly state: TokenState;
}

/** Reuse window from the auth doc: a token with ≥ 30 min left is returned again. */
const REUSE_IF_LEFT_MS = 30 * 60 * 1000;

/**
 * Issues and checks tenant_access_tokens like `auth/v3/tenant_access_token/internal`:
 * `expire` in seconds (default 7200), the same token while ≥ 30 min remain, a new one (both valid) after.
 */
export class TokenStore {
  private readonly tokens = new Map<string, { appId: string; issuedAt: number; expiresAt: number; revoked: boolean }>();

  constructor(
    private readonly apps: readonly FeishuApp[],
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** Answers a token request: the token and `expire` (seconds left), or 10014/10015. */
  issue(appId: unknown, appSecret: unknown): { token: string; expire: number } | { error: FeishuError } {
    const app = this.apps.find((a) => a.appId === appId);
    if (!app) return { error: FeishuErrors.appUnauthorized() };
    if (app.appSecret !== appSecret) return { error: FeishuErrors.wrongSecret() };
    const now = this.clock();
    for (const [token, t] of this.tokens) {
      if (t.appId === app.appId && !t.revoked && t.expiresAt - now >= REUSE_IF_LEFT_MS)
        return { token, expire: Math.floor((t.expiresAt - now) / 1000) };
    }
    const token = `t-${randomHex(40)}`;
    this.tokens.set(token, { appId: app.appId, issuedAt: now, expiresAt: now + this.ttlSeconds * 1000, revoked: false });
    return { token, expire: this.ttlSeconds };
  }

  /**
   * Checks an `Authorization` header. Missing or not `Bearer <token>` → 99991661;
   * unknown, expired or revoked → 99991663. `status` is the HTTP status to answer with.
   */
  verify(authorization: string | undefined, status: number): { appId: string } | { error: FeishuError } {
    const match = /^Bearer\s+(\S+)\s*$/.exec(authorization ?? '');
    if (!match) return { error: FeishuErrors.needToken(status) };
    const t = this.tokens.get(match[1]!);
    if (!t || t.revoked || t.expiresAt <= this.clock()) return { error: FeishuErrors.invalidToken(status) };
    return { appId: t.appId };
  }

  /** Revokes every token (or only `token`); returns how many were active. */
  revoke(token?: string): number {
    let n = 0;
    for (const [key, t] of this.tokens) {
      if (token !== undefined && key !== token) continue;
      if (!t.revoked && t.expiresAt > this.clock()) n += 1;
      t.revoked = true;
    }
    return n;
  }

  /** Every token issued so far, oldest first. */
  list(): IssuedToken[] {
    const now = this.clock();
    return [...this.tokens].map(([token, t]) => ({
      token,
      appId: t.appId,
      issuedAt: t.issuedAt,
      expiresAt: t.expiresAt,
      state: t.revoked ? 'revoked' : t.expiresAt <= now ? 'expired' : 'active',
    }));
  }
}
