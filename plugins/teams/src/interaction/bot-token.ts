import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet } from 'jose';

/** Issuer of the tokens the Bot Connector service sends bots (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication). */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

/** Accepted clock skew, seconds ("5 minutes", same page). */
const CLOCK_SKEW_SECONDS = 300;
/** How long fetched keys are kept (ms); an unknown `kid` refetches them, at most once a minute. */
const KEYS_TTL_MS = 24 * 3600_000;
const REFETCH_AFTER_MS = 60_000;

/** Why a request's token was refused (answered 401 for a missing token, 403 otherwise). */
export class BotTokenError extends Error {
  override readonly name = 'BotTokenError';
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** A JWKS whose keys may list the channels they are endorsed for (Bot Framework's `endorsements`). */
type EndorsedKey = JSONWebKeySet['keys'][number] & { endorsements?: string[] };
type EndorsedKeySet = { keys: EndorsedKey[] };

/**
 * Checks the JWT the Bot Connector service puts on every activity it posts to the bot, as
 * https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication
 * ("Authenticate requests from the Bot Connector service") lists: a `Bearer` token; signed (RS256) with
 * a key of the JWKS named by the OpenID configuration (fetched once, kept a day, refetched for an
 * unknown key id); that key endorsed for the activity's `channelId`; `iss` https://api.botframework.com;
 * `aud` the bot's app id; not expired (5 minutes of skew); the `serviceUrl` claim equal to the
 * activity's. Signature and claims are checked by `jose`.
 */
export class BotTokenValidator {
  readonly #appId: string;
  readonly #openIdMetadataUrl: string;
  #keys: { set: EndorsedKeySet; fetchedAt: number } | undefined;
  #fetching: Promise<EndorsedKeySet> | undefined;

  constructor(appId: string, openIdMetadataUrl: string) {
    this.#appId = appId;
    this.#openIdMetadataUrl = openIdMetadataUrl;
  }

  /** @throws BotTokenError naming what failed. */
  async validate(authorization: string | undefined, activity: { readonly serviceUrl?: unknown; readonly channelId?: unknown }): Promise<void> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new BotTokenError(401, 'no Bearer token');
    const kid = kidOf(token);
    let keys = await this.#keySet(false);
    if (kid && !keys.keys.some((key) => key.kid === kid)) keys = await this.#keySet(true);
    const key = keys.keys.find((k) => k.kid === kid);
    if (!key) throw new BotTokenError(403, 'signed with an unknown key');
    const channelId = typeof activity.channelId === 'string' ? activity.channelId : '';
    if (key.endorsements && !key.endorsements.includes(channelId)) throw new BotTokenError(403, `key not endorsed for channel ${JSON.stringify(channelId)}`);
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, createLocalJWKSet(keys), { issuer: BOT_FRAMEWORK_ISSUER, audience: this.#appId, algorithms: ['RS256'], clockTolerance: CLOCK_SKEW_SECONDS }));
    } catch (error) {
      throw new BotTokenError(403, error instanceof errors.JOSEError ? `token refused (${error.code})` : 'token refused');
    }
    if (claims.serviceUrl !== activity.serviceUrl) throw new BotTokenError(403, 'the serviceUrl claim does not match the activity');
  }

  async #keySet(refetch: boolean): Promise<EndorsedKeySet> {
    const now = Date.now();
    const cached = this.#keys;
    if (cached && (refetch ? now - cached.fetchedAt < REFETCH_AFTER_MS : now - cached.fetchedAt < KEYS_TTL_MS)) return cached.set;
    this.#fetching ??= this.#fetch().finally(() => {
      this.#fetching = undefined;
    });
    try {
      return await this.#fetching;
    } catch {
      if (cached) return cached.set;
      throw new BotTokenError(403, 'the signing keys could not be fetched');
    }
  }

  async #fetch(): Promise<EndorsedKeySet> {
    const config = (await (await fetch(this.#openIdMetadataUrl, { signal: AbortSignal.timeout(10_000) })).json()) as { jwks_uri?: unknown };
    if (typeof config.jwks_uri !== 'string') throw new Error('OpenID configuration without jwks_uri');
    const set = (await (await fetch(config.jwks_uri, { signal: AbortSignal.timeout(10_000) })).json()) as EndorsedKeySet;
    if (!Array.isArray(set.keys)) throw new Error('JWKS without keys');
    this.#keys = { set, fetchedAt: Date.now() };
    return set;
  }
}

/** The `kid` of a JWT's protected header, without trusting it (only to pick the key). */
function kidOf(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
