import type { LimitWindow } from '../common/rate-limiter.js';

/** The Teams Bot Connector limits the emulator enforces. Durations in ms, sizes in bytes. */
export interface TeamsLimits {
  /**
   * "Send to conversation" per bot per thread (send, update, delete; a thread is a 1:1 chat, group chat or
   * channel): 7 / 1 s, 8 / 2 s, 60 / 30 s (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit).
   * Whether an update counts is not stated there (counted here).
   */
  readonly perConversationWindows: readonly LimitWindow[];
  /** Besides those, in a 1:1 chat: 1800 / 3600 s ("applies only if multiple bot messages are sent to a single user", same page). */
  readonly personalChatWindows: readonly LimitWindow[];
  /**
   * Largest activity accepted, measured as UTF-16 bytes (two per code unit) of its JSON: "The bot message
   * size limit is 100 KB … recommended … within 80 KB" on the current page, 40 KB on older versions of
   * https://learn.microsoft.com/microsoftteams/platform/bots/how-to/format-your-bot-messages (default
   * 40 960, the stricter). Over it: 413 `MessageSizeTooBig`; in a stream 403 "Message size too large".
   */
  readonly maxActivityBytes: number;
  /** Longest informative stream update: "must not be more than 1 kb or 1000 characters" (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux). */
  readonly maxInformativeChars: number;
  /** A stream finishes two minutes after its start (same page; 403 "Content stream finished due to exceeded streaming time."). */
  readonly streamLifetimeMs: number;
  /** `expires_in` of the bot's access tokens, ms (the token endpoint answers 3600 s). */
  readonly tokenLifetimeMs: number;
  /** How long a card button click waits for the bot's answer to its invoke (UNCONFIRMED; commonly quoted as about 5 s). */
  readonly invokeTimeoutMs: number;
}

/** The documented limits (see each field of {@link TeamsLimits}). */
export const DEFAULT_TEAMS_LIMITS: TeamsLimits = {
  perConversationWindows: [
    { limit: 7, intervalMs: 1000 },
    { limit: 8, intervalMs: 2000 },
    { limit: 60, intervalMs: 30_000 },
  ],
  personalChatWindows: [{ limit: 1800, intervalMs: 3_600_000 }],
  maxActivityBytes: 40_960,
  maxInformativeChars: 1000,
  streamLifetimeMs: 120_000,
  tokenLifetimeMs: 3_600_000,
  invokeTimeoutMs: 5000,
};
