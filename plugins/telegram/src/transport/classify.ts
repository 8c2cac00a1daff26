import type { CallFailure } from '@progresscard/core/plugin';
import { TelegramApiError, TelegramRequestError } from './routes.js';

/** The plugin refused to send something itself (a message over Telegram's limits). */
export class TelegramLocalError extends Error {
  override readonly name = 'TelegramLocalError';
}

/**
 * Bot API error descriptions by failure kind, matched at the start of the description after its
 * `Bad Request: ` / `Forbidden: ` prefix (texts of the official server, tdlib/telegram-bot-api
 * `Client.cpp`, and of https://core.telegram.org/bots/api): the message can no longer be edited →
 * `gone`; the chat cannot be reached → `target`. Other 400s are `rejected`.
 */
export const TELEGRAM_ERROR_KINDS: readonly (readonly [RegExp, CallFailure['kind']])[] = [
  [/^Bad Request: message to edit not found/, 'gone'],
  [/^Bad Request: message can't be edited/, 'gone'],
  [/^Bad Request: MESSAGE_ID_INVALID/, 'gone'],
  [/^Bad Request: chat not found/, 'target'],
  [/^Bad Request: message thread not found/, 'target'],
  [/^Bad Request: group chat was upgraded to a supergroup chat/, 'target'],
  [/^Bad Request: not enough rights/, 'target'],
  [/^Forbidden: /, 'target'],
];

/** True for "message is not modified": an edit that changes nothing, which is a success for the card. */
export function isNotModified(error: unknown): boolean {
  return error instanceof TelegramApiError && /^Bad Request: message is not modified/.test(error.description);
}

/** True for TEXTDRAFT_PEER_INVALID: the chat takes no drafts (a group, or a user the draft flow refuses). */
export function isDraftRefused(error: unknown): boolean {
  return error instanceof TelegramApiError && /TEXTDRAFT_PEER_INVALID/.test(error.description);
}

/**
 * Maps what the transport threw to the core's failure kinds:
 * - 429 "Too Many Requests: retry after N" → `rate-limited` after `parameters.retry_after` seconds,
 *   for the whole channel: Telegram does not say whether the chat's, the group's or the bot's
 *   limit was hit (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this);
 * - 401 Unauthorized, 404 (a malformed token) → `auth`; 5xx, no answer → `transient`;
 * - descriptions by {@link TELEGRAM_ERROR_KINDS}, other 4xx → `rejected`.
 * Never throws; `detail` holds the status and description, never the token.
 */
export function classifyTelegramError(error: unknown): CallFailure {
  if (error instanceof TelegramLocalError) return { kind: 'rejected', detail: error.message };
  if (error instanceof TelegramRequestError) return { kind: 'transient', detail: error.message };
  if (!(error instanceof TelegramApiError)) return { kind: 'transient', detail: `telegram unexpected error (${error instanceof Error ? error.name : typeof error})` };
  const detail = `telegram ${error.method}: ${error.status} ${error.description}`;
  if (error.status === 429) {
    const seconds = Number(error.retryAfter);
    return { kind: 'rate-limited', scope: 'channel', retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined, detail };
  }
  if (error.status === 401 || error.status === 404) return { kind: 'auth', detail };
  if (error.status >= 500) return { kind: 'transient', detail };
  const kind = TELEGRAM_ERROR_KINDS.find(([pattern]) => pattern.test(error.description))?.[1] ?? 'rejected';
  return { kind, detail } as CallFailure;
}
