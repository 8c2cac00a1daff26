import type { CallFailure } from '@progresscard/core/plugin';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { DiscordApiError, DiscordRequestError } from './routes.js';

/** The plugin refused to send something itself (a message over Discord's limits). */
export class DiscordLocalError extends Error {
  override readonly name = 'DiscordLocalError';
}

/**
 * JSON error codes by failure kind (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes):
 * the message can no longer be edited → `gone` (deleted 10008; 30046, the cap on edits of messages
 * older than an hour, makes the final go out as a fresh message); the channel cannot be reached →
 * `target`; the token → `auth`; Discord's side → `transient`. Other 4xx are `rejected`.
 */
export const DISCORD_ERROR_KINDS: Readonly<Record<number, CallFailure['kind']>> = {
  [RESTJSONErrorCodes.UnknownMessage]: 'gone',
  [RESTJSONErrorCodes.MaximumNumberOfEditsToMessagesOlderThanOneHourReached]: 'gone',
  [RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser]: 'gone',
  [RESTJSONErrorCodes.UnknownChannel]: 'target',
  [RESTJSONErrorCodes.MissingAccess]: 'target',
  [RESTJSONErrorCodes.MissingPermissions]: 'target',
  [RESTJSONErrorCodes.InvalidActionOnArchivedThread]: 'target',
  [RESTJSONErrorCodes.InvalidToken]: 'auth',
  [RESTJSONErrorCodes.APIResourceOverloaded]: 'transient',
};

/**
 * Maps what the transport threw to the core's failure kinds:
 * - 429 → `rate-limited` after `retry_after` seconds; the global limit pauses the channel, a
 *   bucket's only the card (its answer's headers already told the budget the bucket is spent)
 *   (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit); 20016/20028
 *   (slowmode, channel write limit) likewise;
 * - 401 → `auth`; 5xx and no answer → `transient`; codes by {@link DISCORD_ERROR_KINDS}; other 4xx `rejected`.
 * Never throws; `detail` names the route, status and code, never the token.
 */
export function classifyDiscordError(error: unknown): CallFailure {
  if (error instanceof DiscordLocalError) return { kind: 'rejected', detail: error.message };
  if (error instanceof DiscordRequestError) return { kind: 'transient', detail: error.message };
  if (!(error instanceof DiscordApiError)) return { kind: 'transient', detail: `discord unexpected error (${error instanceof Error ? error.name : typeof error})` };
  const detail = error.message;
  const retryAfterMs = error.retryAfter !== undefined && error.retryAfter > 0 ? Math.ceil(error.retryAfter * 1000) : undefined;
  if (error.status === 429 || error.code === RESTJSONErrorCodes.ChannelWriteRateLimit || error.code === RESTJSONErrorCodes.ActionCannotBePerformedDueToSlowmodeRateLimit) {
    return { kind: 'rate-limited', scope: error.global ? 'channel' : 'card', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), detail };
  }
  const kind = DISCORD_ERROR_KINDS[error.code];
  if (kind) return { kind, detail } as CallFailure;
  if (error.status === 401) return { kind: 'auth', detail };
  if (error.status >= 500) return { kind: 'transient', detail };
  return { kind: 'rejected', detail };
}
