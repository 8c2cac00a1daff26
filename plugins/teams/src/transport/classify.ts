import type { CallFailure } from '@progresscard/core/plugin';
import { TeamsApiError, TeamsRequestError } from './routes.js';
import { TeamsTokenError } from './token.js';

/** The plugin refused to send something itself (an activity over the size limit). */
export class TeamsLocalError extends Error {
  override readonly name = 'TeamsLocalError';
}

/**
 * 403 `ContentStreamNotAllowed` messages by failure kind (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux,
 * "Response codes"): the user's Stop ("Content stream was canceled by user"; the Python SDK spells it
 * "cancelled", so matched on "cancel" as the Teams SDK does) → `stopped-by-user`; a stream past its two
 * minutes or already final → `stream-ended`; streaming not allowed here (not a 1:1 chat) or too large →
 * `rejected` (a refused start sends the card in edit mode).
 */
export const TEAMS_STREAM_ERRORS: readonly (readonly [RegExp, CallFailure['kind']])[] = [
  [/cancel/i, 'stopped-by-user'],
  [/exceeded streaming time/i, 'stream-ended'],
  [/already completed/i, 'stream-ended'],
  [/another stream/i, 'rejected'],
];

/**
 * Maps what the transport threw to the core's failure kinds
 * (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit for 429/412/502/504):
 * - 429 → `rate-limited` after `Retry-After` when given (not documented whether Teams sends it);
 * - 401, and the token endpoint refusing the credentials → `auth`;
 * - 403 `ContentStreamNotAllowed` by {@link TEAMS_STREAM_ERRORS}; another 403 (bot removed, blocked by the
 *   user, not in the roster) → `target`;
 * - 404: `ConversationNotFound` → `target`, otherwise (the activity was deleted) → `gone`;
 * - 413 (`MessageSizeTooBig`) and other 4xx → `rejected`;
 * - 412, 5xx, timeouts and network errors → `transient`.
 * Never throws; `detail` holds the status, code and message, never the secret or token.
 */
export function classifyTeamsError(error: unknown): CallFailure {
  if (error instanceof TeamsLocalError) return { kind: 'rejected', detail: error.message };
  if (error instanceof TeamsRequestError) return { kind: 'transient', detail: error.message };
  if (error instanceof TeamsTokenError) return error.status >= 500 ? { kind: 'transient', detail: error.message } : { kind: 'auth', detail: error.message };
  if (!(error instanceof TeamsApiError)) return { kind: 'transient', detail: `teams unexpected error (${error instanceof Error ? error.name : typeof error})` };
  const detail = error.message;
  // A chunk Teams dropped as out of order (202): this process lost the stream's sequence; go on in a fresh stream.
  if (error.code === 'ContentStreamSequenceOrderPreConditionFailed') return { kind: 'stream-ended', detail };
  if (error.status === 429) return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs, detail };
  if (error.status === 401) return { kind: 'auth', detail };
  if (error.status === 403) {
    if (error.code === 'ContentStreamNotAllowed') return { kind: TEAMS_STREAM_ERRORS.find(([pattern]) => pattern.test(error.description))?.[1] ?? 'rejected', detail } as CallFailure;
    return { kind: 'target', detail };
  }
  if (error.status === 404) return { kind: error.code === 'ConversationNotFound' ? 'target' : 'gone', detail };
  if (error.status === 412 || error.status >= 500) return { kind: 'transient', detail };
  return { kind: 'rejected', detail };
}
