import type { CallHistory, CallRecord } from '../common/history.js';
import type { InFlightTracker } from '../common/in-flight.js';
import { TelegramStore, type StoredTelegramMessage, type TelegramDocument, type TelegramMessageState } from './chats.js';

/** A message with its calls, as read back. */
export interface TelegramMessageSnapshot {
  readonly chatId: number;
  readonly messageId: number;
  readonly threadId?: number;
  readonly replyTo?: number;
  /** What was sent (HTML source with `parse_mode: HTML`). */
  readonly source: string;
  /** What the user sees. */
  readonly text: string;
  readonly replyMarkup?: unknown;
  readonly state: TelegramMessageState;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly edits: number;
  readonly history: CallRecord[];
  readonly maxConcurrentCalls: number;
  /** The file of a document message, with its bytes. */
  readonly document?: TelegramDocument;
  /** The id of the bot that sent it. */
  readonly sentBy?: string;
}

/** Message `m` as read back (a deep copy): its calls from `history`, its most concurrent calls from `inFlight`. */
export function telegramSnapshot(m: StoredTelegramMessage, history: CallHistory, inFlight: InFlightTracker): TelegramMessageSnapshot {
  return structuredClone({
    chatId: m.chatId,
    messageId: m.messageId,
    ...(m.threadId !== undefined ? { threadId: m.threadId } : {}),
    ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
    source: m.source,
    text: m.text,
    ...(m.replyMarkup !== undefined ? { replyMarkup: m.replyMarkup } : {}),
    state: m.state,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    edits: m.edits,
    history: history.list({ key: TelegramStore.key(m.chatId, m.messageId) }),
    maxConcurrentCalls: inFlight.max(TelegramStore.key(m.chatId, m.messageId)),
    ...(m.document ? { document: m.document } : {}),
    ...(m.sentBy !== undefined ? { sentBy: m.sentBy } : {}),
  });
}
