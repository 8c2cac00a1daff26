import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The application's public key (64 hex digits, as the Developer Portal shows it) as a key object.
 * @throws TypeError when it is not 64 hex digits.
 */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new TypeError('a Discord public key is 64 hex digits');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/**
 * Farthest a request's `X-Signature-Timestamp` may be from now, in ms: five minutes, as the Slack
 * and Feishu endpoints apply (replay protection). Discord's page below does not name a window
 * (unconfirmed); it gives an endpoint 3 s to answer and does not retry, so a genuine request is
 * seconds old.
 */
const MAX_DISCORD_REQUEST_AGE_MS = 5 * 60 * 1000;

/**
 * True when `X-Signature-Ed25519` is the application's Ed25519 signature of
 * `X-Signature-Timestamp + body` (https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers)
 * and the timestamp (epoch seconds) is at most {@link MAX_DISCORD_REQUEST_AGE_MS} from `nowMs`
 * (epoch ms, default `Date.now()`): a correctly signed but old request is a replay. Never throws.
 */
export function verifyDiscordRequest(publicKey: KeyObject, signature: string | undefined, timestamp: string | undefined, body: string, nowMs: number = Date.now()): boolean {
  if (!signature || !timestamp || !/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs - Number(timestamp) * 1000) > MAX_DISCORD_REQUEST_AGE_MS) return false;
  try {
    return verify(null, Buffer.from(timestamp + body), publicKey, Buffer.from(signature, 'hex'));
  } catch {
    return false;
  }
}
