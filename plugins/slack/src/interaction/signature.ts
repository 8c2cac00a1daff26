import { createHmac, timingSafeEqual } from 'node:crypto';

/** Oldest request accepted, in ms: Slack's guide rejects requests more than five minutes old (replay protection). */
const MAX_REQUEST_AGE_MS = 5 * 60 * 1000;

/**
 * `X-Slack-Signature` of a request: `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw
 * body>` keyed with the app's signing secret
 * (https://api.slack.com/authentication/verifying-requests-from-slack).
 */
export function slackSignature(signingSecret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * True when `signature` is the {@link slackSignature} of the request (constant-time compare) and
 * `timestamp` (epoch seconds) is at most {@link MAX_REQUEST_AGE_MS} from `nowMs`.
 */
export function verifySlackRequest(signingSecret: string, timestamp: string | undefined, signature: string | undefined, body: string, nowMs: number): boolean {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs - Number(timestamp) * 1000) > MAX_REQUEST_AGE_MS) return false;
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
