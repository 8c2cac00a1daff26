import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Clock } from '../common/clock.js';
import { randomHex } from '../common/ids.js';

/** A bot's registration: its Microsoft App ID and client secret. */
export interface TeamsBotCredentials {
  readonly appId: string;
  readonly appPassword: string;
}

/** The issuer of tokens the Bot Connector service sends to bots (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication). */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

/** Claims of an inbound token besides the standard ones. */
export interface InboundTokenOptions {
  /** The bot's app id (`aud`). */
  readonly appId: string;
  /** Must equal the activity's `serviceUrl`. */
  readonly serviceUrl: string;
  /** Sign with a key the JWKS does not list (a forged request). */
  readonly forged?: boolean;
  /** Seconds before now the token expired (an expired token). */
  readonly expiredSecondsAgo?: number;
}

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * Both directions of Bot Framework auth in the emulator. Outgoing: the client-credentials token endpoint
 * (`POST /{tenant}/oauth2/v2.0/token`, `grant_type=client_credentials`, scope
 * `https://api.botframework.com/.default`) hands out bearer tokens valid `tokenLifetimeMs` (opaque here:
 * a bot must not read them). Incoming: activities the emulator posts to a bot carry an RS256 JWT
 * (`iss` https://api.botframework.com, `aud` the app id, `serviceUrl` claim) signed with the emulator's
 * own key, published as a JWKS (keys endorsed for `msteams`) behind an OpenID configuration, as
 * https://login.botframework.com/v1/.well-known/openidconfiguration is.
 */
export class TeamsAuth {
  readonly #tokens = new Map<string, { appId: string; expiresAt: number }>();
  readonly #bots: Map<string, string>;
  #keys: Promise<{ signing: KeyPair; forger: KeyPair; kid: string }> | undefined;

  constructor(
    bots: readonly TeamsBotCredentials[],
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
  ) {
    this.#bots = new Map(bots.map((bot) => [bot.appId, bot.appPassword]));
  }

  /** Issues a token for a client-credentials request; undefined when the id or secret is wrong. */
  issue(form: Record<string, unknown>): { access_token: string; token_type: 'Bearer'; expires_in: number; ext_expires_in: number } | { error: string; error_description: string } {
    if (form.grant_type !== 'client_credentials') return { error: 'unsupported_grant_type', error_description: `AADSTS70003: grant_type ${String(form.grant_type)} is not supported.` };
    const appId = typeof form.client_id === 'string' ? form.client_id : '';
    if (!this.#bots.has(appId)) return { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${appId}' was not found.` };
    if (this.#bots.get(appId) !== form.client_secret) return { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' };
    if (form.scope !== 'https://api.botframework.com/.default') return { error: 'invalid_scope', error_description: `AADSTS70011: The provided value for scope ${String(form.scope)} is not valid.` };
    const token = `emu.${randomHex(32)}`;
    this.#tokens.set(token, { appId, expiresAt: this.clock() + this.lifetimeMs });
    const seconds = Math.floor(this.lifetimeMs / 1000);
    return { access_token: token, token_type: 'Bearer', expires_in: seconds, ext_expires_in: seconds };
  }

  /** The app a bearer header belongs to, or undefined (missing, unknown, expired). */
  verify(authorization: string | undefined): string | undefined {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const known = token === undefined ? undefined : this.#tokens.get(token);
    return known && known.expiresAt > this.clock() ? known.appId : undefined;
  }

  /** Expires every token handed out (the next call with one answers 401). */
  expireAll(): void {
    this.#tokens.clear();
  }

  /** The JWKS served at `/v1/.well-known/keys`. */
  async jwks(): Promise<{ keys: (JWK & { endorsements: string[] })[] }> {
    const { signing, kid } = await this.#keyPairs();
    return { keys: [{ ...(await exportJWK(signing.publicKey)), kid, use: 'sig', alg: 'RS256', endorsements: ['msteams'] }] };
  }

  /** A signed token for an activity the emulator posts to a bot. */
  async inboundToken(options: InboundTokenOptions): Promise<string> {
    const { signing, forger, kid } = await this.#keyPairs();
    const now = Math.floor(this.clock() / 1000) - (options.expiredSecondsAgo !== undefined ? 3600 + options.expiredSecondsAgo : 0);
    return new SignJWT({ serviceUrl: options.serviceUrl })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(BOT_FRAMEWORK_ISSUER)
      .setAudience(options.appId)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(options.forged ? forger.privateKey : signing.privateKey);
  }

  #keyPairs() {
    this.#keys ??= Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256')]).then(([signing, forger]) => ({ signing, forger, kid: `emu-${randomHex(8)}` }));
    return this.#keys;
  }
}
