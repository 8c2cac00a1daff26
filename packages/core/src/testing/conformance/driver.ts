import type { BudgetWindow, ChannelPlugin } from '../../plugin/contract.js';

/**
 * The driver a plugin author writes so that `describeChannelConformance` can run their channel:
 * it starts their platform (an emulator on loopback, or an in-memory fake), points the plugin at
 * it, injects the platform's own failure answers and reads back what the platform holds. Times
 * are wall-clock milliseconds: the suite runs in real time with short timings (an e2e test).
 */
export interface ConformanceDriver {
  /** Shown in the suite's name, e.g. `slack (emulator)`. */
  readonly name: string;
  /**
   * Starts a fresh platform and a plugin pointed at it. Pass `setup.timing` into the plugin's
   * config (the timing overrides), so cards move fast enough for a test.
   */
  start(setup: ConformanceSetup): Promise<ConformancePlatform>;
  /**
   * Starts a fresh platform whose native streams live `setup.streamLifetimeMs`, and a plugin that
   * streams (its `StreamingMode` declaring that lifetime). Absent: the channel has no streaming
   * mode and the stream cases are skipped.
   */
  startStreaming?(setup: ConformanceStreamSetup): Promise<ConformanceStreamPlatform>;
}

/** What the stream cases ask of a platform: the {@link ConformanceSetup}, and a short stream life. */
export interface ConformanceStreamSetup extends ConformanceSetup {
  /** Wall-clock ms a stream takes calls after its start (absolute, like Slack's); the plugin declares the same `maxAgeMs`. */
  readonly streamLifetimeMs: number;
}

/** A platform with native streams, started by {@link ConformanceDriver.startStreaming}. */
export interface ConformanceStreamPlatform extends ConformancePlatform {
  /**
   * Answers the next `times` (default 1) calls of `op` with `fault`: `send` is a streamed card's
   * first call (the stream's start), `update` a call on its open stream.
   */
  fail(op: 'send' | 'update', fault: ConformanceFault, times?: number): void;
  /**
   * What a card is opened with so that it streams (Slack streams only thread replies: post a
   * message and answer `{ replyTo: { messageId, inThread: true } }`). `{}` when every card streams.
   */
  streamedCard(): Promise<{ readonly replyTo?: { readonly messageId: string; readonly inThread?: boolean } }>;
  /** The stream messages the platform holds, oldest first, with the text each streamed. */
  streams(): readonly { readonly id: string; readonly text: string }[];
  /**
   * The user presses the platform's own Stop on stream message `messageId`. Absent when the
   * platform has none (the platform-stop case is skipped).
   */
  stopStream?(messageId: string): void;
}

/** What the suite asks of a platform it starts. */
export interface ConformanceSetup {
  /** Timing overrides the plugin must take (ms): a short tick, debounce and per-card interval, a roomy budget. */
  readonly timing: {
    readonly tickMs: number;
    readonly debounceMs: number;
    readonly perCardIntervalMs: number;
    /** A fresh array each start (config schemas take mutable arrays). */
    readonly budget: BudgetWindow[];
  };
  /** True for the interaction cases: configure card callbacks (buttons) on the plugin and the platform. */
  readonly interaction: boolean;
}

/** A platform call as the platform saw it. */
export interface ConformanceCall {
  /** `send` created the message, `update` changed it. */
  readonly op: 'send' | 'update';
  /** Wall-clock epoch ms the platform received it. */
  readonly at: number;
  /** True when the platform refused it (an error answer of any kind). */
  readonly refused: boolean;
  /**
   * What the message showed after this call, as plain text. Optional; a pulling platform
   * ({@link ConformancePlatform.pull}) gives it, so the suite can check that no poll was answered
   * with older content than an earlier one.
   */
  readonly text?: string;
}

/** A message the platform holds. */
export interface ConformanceMessage {
  /** The id the transport's `MessageRef.id` carries for it. */
  readonly id: string;
  /** Everything the message shows now, as plain text (title, status, tool lines, answer, footer…). */
  readonly text: string;
  /** Every call made on this message, in order (the send first). */
  readonly calls: readonly ConformanceCall[];
  /** The message this one replies to (a continuation part), if any. */
  readonly replyTo?: string;
}

/**
 * A failure the platform answers with, as the platform words it (the driver maps it to its
 * platform's real answer: HTTP 429 with Retry-After, an error code…):
 * - `rate-limited`: the call is refused, try again after `retryAfterMs`;
 * - `auth`: the credentials are refused (401, a revoked token);
 * - `transient`: a 5xx;
 * - `not-modified`: an update that changes nothing the platform shows is refused as such (Telegram
 *   `400 Bad Request: message is not modified`); a driver whose platform never does this leaves
 *   {@link ConformancePlatform.notModifiedIsRefused} false.
 */
export type ConformanceFault =
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number }
  | { readonly kind: 'auth' }
  | { readonly kind: 'transient' }
  | { readonly kind: 'not-modified' };

/** A click on a card control, as a user makes it in the platform's client. */
export interface ConformanceClick {
  /** The message showing the control. */
  readonly messageId: string;
  /** The clicking user's platform id. */
  readonly user: string;
  /**
   * What is clicked: the approval buttons, the card's Stop button, or a choice of a question by
   * its label (the core draws it in the card's locale; the suite opens cards with `locale: 'en'`).
   */
  readonly control: { readonly kind: 'approve' | 'deny' | 'stop' } | { readonly kind: 'choice'; readonly label: string };
}

/** A platform started by a {@link ConformanceDriver}. */
export interface ConformancePlatform {
  /** The plugin, pointed at this platform, built with the setup's timing. */
  readonly plugin: ChannelPlugin;
  /** Every message the platform holds, in the order they were sent. */
  messages(): readonly ConformanceMessage[];
  /** Answers the next `times` (default 1) calls of `op` with `fault`. */
  fail(op: 'send' | 'update', fault: ConformanceFault, times?: number): void;
  /** The message is deleted (recalled) by a user: later updates of it are refused as gone. */
  remove(messageId: string): void;
  /** Most platform calls on one message in flight at once, over the whole run. */
  maxInFlight(): number;
  /**
   * True when the platform pulls the card's state instead of taking pushed edits (WeCom's AI bot
   * polls the bot for its stream about once a second): while the message lives the plugin makes no
   * call the platform could refuse, so the suite runs the pull case (every poll answered from the
   * latest state, never older; each {@link ConformanceCall} one poll that changed what the message
   * shows, with its `text`) instead of F01 (a refused update) and the refused-credentials case, and
   * `fail` applies to the calls the plugin does push (e.g. a `response_url` post after the stream).
   * The plugin cannot see the platform read its answer to a poll, so the suite calls
   * {@link ConformancePlatform.settled} before it checks the messages.
   */
  readonly pull?: boolean;
  /**
   * A pulling platform: resolves once it has read every answer the plugin already gave (no poll
   * in flight), so the messages show them. Push platforms leave it out (a call resolves once the
   * platform applied it).
   */
  settled?(): Promise<void>;
  /** True when the platform refuses a no-op edit (see `not-modified`); the suite then checks it is no failure. */
  readonly notModifiedIsRefused?: boolean;
  /**
   * Clicks a control, once the message shows it (waits for it). Absent: the channel has no card
   * callbacks and the interaction cases are skipped. Resolves when the platform has the app's answer.
   */
  click?(click: ConformanceClick): Promise<void>;
  /** Stops the platform. */
  close(): Promise<void>;
}
