import type { LimitWindow } from '../common/rate-limiter.js';

/** Telegram limits the emulator enforces. Durations in ms. */
export interface TelegramLimits {
  /**
   * Messages (sends and edits) per chat: "avoid sending more than one message per second" in a
   * single chat (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this).
   * That edits count against the same flood control is observed, not documented (UNCONFIRMED).
   */
  readonly perChatWindows: readonly LimitWindow[];
  /** Per group or supergroup (all its topics): "not … more than 20 messages per minute" (same FAQ). */
  readonly perGroupWindows: readonly LimitWindow[];
  /** Per bot across chats: "no more than 30 messages per second" (same FAQ). */
  readonly perBotWindows: readonly LimitWindow[];
  /** Draft updates per private chat. Not documented (UNCONFIRMED); default one a second like messages. */
  readonly draftWindows: readonly LimitWindow[];
  /** Text of a message or draft: 4096 characters after entities parsing (https://core.telegram.org/bots/api#sendmessage). */
  readonly maxTextChars: number;
  /** `callback_data` of an inline button: 1–64 bytes (https://core.telegram.org/bots/api#inlinekeyboardbutton). */
  readonly maxCallbackDataBytes: number;
  /** A document a bot uploads (sendDocument, multipart): 50 MB (https://core.telegram.org/bots/api#sending-files). */
  readonly maxDocumentBytes: number;
  /** A draft is "a temporary 30-second preview" (https://core.telegram.org/bots/api#sendmessagedraft). */
  readonly draftLifetimeMs: number;
  /** How long a callback query may be answered. Not documented (UNCONFIRMED); default 15 s. */
  readonly callbackAnswerMs: number;
}

/** The documented values. */
export const DEFAULT_TELEGRAM_LIMITS: TelegramLimits = {
  perChatWindows: [{ limit: 1, intervalMs: 1000 }],
  perGroupWindows: [{ limit: 20, intervalMs: 60_000 }],
  perBotWindows: [{ limit: 30, intervalMs: 1000 }],
  draftWindows: [{ limit: 1, intervalMs: 1000 }],
  maxTextChars: 4096,
  maxCallbackDataBytes: 64,
  maxDocumentBytes: 50 * 1024 * 1024,
  draftLifetimeMs: 30_000,
  callbackAnswerMs: 15_000,
};
