/** The budget part of the plugin contract: rate-limit windows, budget keys, and the settings a channel runs with. */
import type { VerbositySetting } from '../card/verbosity.js';
import type { MessageRef, ReplyToMessage } from './message-types.js';

/** One rate-limit window of a channel's API budget: at most `limit` calls per `intervalMs`. */
export interface BudgetWindow {
  readonly limit: number;
  /** Window length in ms. */
  readonly intervalMs: number;
}

/**
 * One budget a platform call draws from: a key naming what the platform counts calls by (an API
 * route of one app, a receiving chat, a message) and the windows of that key, which all apply at
 * once. The core paces every key to a steady rate that respects each of its windows.
 */
export interface BudgetKey {
  /** E.g. `feishu:cli_a1:patch`, `feishu:chat:oc_42`, `feishu:message:om_7`. Keys are global in a `BudgetStore`. */
  readonly key: string;
  /**
   * Non-empty; every window must have a positive integer `limit` and `intervalMs`. The windows of
   * a key may change from one call to the next (a plugin that learns them from the platform's
   * answers, see `AnnouncedLimits`): the `BudgetStore` paces the key by the windows of the latest
   * request, keeping the calls it already counted.
   */
  readonly windows: readonly BudgetWindow[];
  /**
   * Epoch ms before which no call under this key may leave, because the platform announced the
   * key's current window spent until then (Discord `X-RateLimit-Remaining: 0` with
   * `X-RateLimit-Reset-After`, https://discord.com/developers/docs/topics/rate-limits#header-format).
   * Absent or in the past: no such wait.
   */
  readonly notBefore?: number;
}

/** A platform call the core is about to make, as {@link ChannelPlugin.budgetKeys} sees it. */
export interface BudgetedCall<Target = unknown> {
  /**
   * `send` creates a message (a card or a continuation part), `update` changes one; `image-upload`
   * and `reaction` are calls a transport makes besides them ({@link ExtraCalls}; a `resend` is
   * budgeted as the call it repeats).
   */
  readonly kind: 'send' | 'update' | Exclude<ExtraCallKind, 'resend'>;
  /** The target given to `open()` (undefined = the plugin's configured target). */
  readonly target: Target | undefined;
  /** The message an `update` changes. */
  readonly message?: MessageRef;
  /** For a continuation part: the main message it replies to. */
  readonly replyTo?: MessageRef;
  /** For a card opened with `replyTo`: the triggering message its send replies to. */
  readonly replyToMessage?: ReplyToMessage;
  /**
   * Set for a call of a native stream ({@link ChannelPlugin.streaming}): `start` (budgeted as a
   * `send`), `append` and `stop` (budgeted as an `update` of {@link message}).
   */
  readonly stream?: 'start' | 'append' | 'stop';
}

/**
 * Timing and budget of a channel. All durations in ms. The same shape serves as a plugin's
 * defaults, as the resolved settings of a composition, and (as `Partial<ChannelSettings>`) as
 * config overrides.
 */
export interface ChannelSettings {
  /** How often cards with running tools re-render their elapsed times (e.g. Feishu 3000). */
  readonly tickMs: number;
  /**
   * Windows of one API route of the channel (e.g. Feishu 50/s and 1000/min for message create, and
   * again for patch); all apply at once. Without {@link ChannelPlugin.budgetKeys} every call of the
   * channel draws from this one budget; with it, the plugin decides which keys use these windows.
   */
  readonly budget: readonly BudgetWindow[];
  /** Minimum time between two requests for one card (Feishu: 5 updates/s per message → 250). */
  readonly perCardIntervalMs: number;
  /** Verbose output buffer: text deltas are released to the card at least this often. */
  readonly debounceMs: number;
  /**
   * How much the channel's cards show (`quiet`, `compact`, `detailed`), for every chat or per chat
   * type (`{ direct: 'detailed', group: 'compact' }`); a run's `OpenCardOptions.verbosity` wins.
   * Default: `detailed`, or per chat type when the run tells it (`OpenCardOptions.chatType`).
   */
  readonly verbosity?: VerbositySetting;
  /**
   * How long the core waits for one platform call (send, update, credential refresh) before giving
   * it up as a `transient` failure that may still be applied late (retried like one; the late-call
   * fencing applies). Default 15 000 (`DEFAULT_CALL_TIMEOUT_MS`), above the plugins' own HTTP
   * timeouts, so it catches a transport that never settles rather than a slow platform.
   */
  readonly callTimeoutMs?: number;
}

/**
 * A platform call a transport makes besides the send or update it was asked for: an image upload,
 * adding or removing a reaction, or the same call once more after the platform refused an image
 * reference in it (`resend`, sent with the image as text).
 */
export type ExtraCallKind = 'image-upload' | 'reaction' | 'resend';
