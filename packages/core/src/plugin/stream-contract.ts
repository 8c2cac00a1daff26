import type { CardView, PlanView, ToolLineState } from '../card/view.js';
import type { MessageRef, ReplyToMessage, Requester } from './message-types.js';

/**
 * Native streaming in the channel contract. A channel whose platform streams a message natively
 * (Slack `chat.startStream` / `appendStream` / `stopStream`, Teams streaming activities, WeCom
 * stream messages, Feishu CardKit, DingTalk AI cards) declares a {@link StreamingMode}; the core
 * then owns the stream's life, once for every channel: it opens the stream on the card's first
 * content, appends only what is new (no full re-render), keeps an idle stream alive before it
 * expires, rolls over to a fresh stream before (or when) the stream's life ends without losing or
 * repeating a character, and finishes the last stream with the final. The plugin only says how
 * each call is made and how a failure is classified (`stream-ended`, `stopped-by-user`).
 */

/** How long a platform keeps a stream open. Durations in ms; absent = no such limit. */
export interface StreamLifetime {
  /**
   * Longest a stream accepts appends after it started, whatever is sent (Slack about 300 000, not
   * documented; Teams 120 000; Feishu CardKit streaming 600 000). The core rolls over to a fresh
   * stream `rollOverMarginMs` before it.
   */
  readonly maxAgeMs?: number;
  /**
   * A stream that got no accepted call for this long expires (WeCom 360 000, error 846608). The core
   * sends a keep-alive `rollOverMarginMs` before it while the run goes on.
   */
  readonly idleExpiryMs?: number;
  /** How long before either limit the core acts (default: a tenth of the shorter limit, at most 30 000). */
  readonly rollOverMarginMs?: number;
  /**
   * Close a quiet stream (nothing new to send) with a roll-over stop `rollOverMarginMs` before its
   * `maxAgeMs`, instead of leaving it to reach its end unclosed; the next content opens a fresh stream.
   * For a platform whose stream left open past its life ends without its final message (Teams: 403
   * "Content stream finished due to exceeded streaming time", the bot "must switch … to updating the
   * final activity"). Default false.
   */
  readonly closeBeforeMaxAge?: boolean;
}

/**
 * How a stream takes text: `append` sends only the characters added since the last accepted call
 * (Slack `markdown_text` of `chat.appendStream`), `full` sends the stream's whole text each time
 * (WeCom, Feishu CardKit `content`).
 */
export type StreamTextMode = 'append' | 'full';

/** Structure a stream takes as typed chunks besides text: the agent's plan, and tool calls as task steps. */
export type StreamChunkKind = 'plan' | 'tasks';

/** One task step of a stream: a tool call (Slack `task_update` chunk). */
export interface StreamTask {
  /** Stable per tool call (the call id). */
  readonly id: string;
  /** The tool line's title (tool name and argument detail). */
  readonly title: string;
  readonly status: 'pending' | 'in_progress' | 'complete' | 'error';
  /** The tool's result summary, once it finished. */
  readonly output?: string;
}

/** What one stream call carries. Only what changed since the last accepted call is set. */
export interface StreamContent {
  /**
   * With text mode `append`: the characters added since the last accepted call of this stream
   * (maybe empty). With `full`: this stream's whole text so far.
   */
  readonly text: string;
  /** The plan, when the channel takes `plan` chunks and it changed. */
  readonly plan?: PlanView;
  /** Task steps that are new or changed (title, status or output), when the channel takes `tasks` chunks. */
  readonly tasks?: readonly StreamTask[];
}

/** Arguments of {@link StreamTransport.start}: a fresh stream message. */
export interface StreamStartRequest<Target = unknown> {
  /** The card's target as given to `open()` (undefined = the plugin's configured target). */
  readonly target: Target | undefined;
  /** The message that triggered the run, when the card replies to it (Slack needs a thread). */
  readonly replyToMessage?: ReplyToMessage;
  /** Who asked for the run, when known (Slack `recipient_user_id` of a stream in a channel). */
  readonly requester?: Requester;
  /** Stable per stream: a retried start with the same key must not open a second stream where the platform allows. */
  readonly idempotencyKey: string;
  /** What the stream opens with: the text not shown by earlier streams, the plan and the open tasks. */
  readonly content: StreamContent;
  /** 0 for the card's first stream, then 1, 2… for each roll-over. */
  readonly sequence: number;
  /** The card as it looks now (title, locale) for whatever the platform shows around the stream. */
  readonly view: CardView;
}

/** Arguments of {@link StreamTransport.append}. */
export interface StreamAppendRequest {
  readonly stream: MessageRef;
  readonly content: StreamContent;
  /**
   * True when nothing changed and the call only keeps the stream from expiring
   * ({@link StreamLifetime.idleExpiryMs}): send the cheapest call the platform counts as activity.
   */
  readonly keepAlive: boolean;
}

/** Arguments of {@link StreamTransport.stop}. */
export interface StreamStopRequest {
  readonly stream: MessageRef;
  /** The last content of this stream. */
  readonly content: StreamContent;
  /**
   * `final`: the run ended; show `view`'s footer and final controls below the streamed text (Slack
   * `blocks` of `chat.stopStream`). `roll-over`: the stream nears its end of life and a fresh one
   * follows at once; say it continues below.
   */
  readonly reason: 'final' | 'roll-over';
  readonly view: CardView;
}

/**
 * Makes a channel's stream calls. Methods throw on failure; the channel's `CardTransport.classify`
 * maps what they throw: a stream that no longer accepts calls (expired, too old, Slack
 * `message_not_in_streaming_state`) → `stream-ended`; the user pressed the platform's own Stop
 * (Slack `stopped_by_user`, Teams 403 "Content stream was canceled by user") → `stopped-by-user`.
 */
export interface StreamTransport<Target = unknown> {
  /** Opens a stream message with its first content. */
  start(request: StreamStartRequest<Target>): Promise<MessageRef>;
  /** Adds content to an open stream. */
  append(request: StreamAppendRequest): Promise<void>;
  /** Closes a stream with its last content. */
  stop(request: StreamStopRequest): Promise<void>;
}

/** The card a channel is asked about in {@link StreamingMode.appliesTo}. */
export interface StreamCandidate<Target = unknown> {
  readonly target: Target | undefined;
  readonly replyToMessage?: ReplyToMessage;
  /** Who asked for the run, when known (Slack addresses a stream in a channel to them). */
  readonly requester?: Requester;
}

/**
 * A channel's native streaming mode ({@link ChannelPlugin.streaming}). Cards it applies to are
 * delivered as streams; the others, and a card whose stream cannot start, use the channel's edit
 * mode (`send` + `update`). Budgets stay per call and per key: stream calls are budgeted as
 * `BudgetedCall`s with `stream` set.
 */
export interface StreamingMode<Target = unknown> {
  readonly lifetime: StreamLifetime;
  readonly text: StreamTextMode;
  /** Structure sent as chunks (empty: the plan and tool calls are not streamed). */
  readonly chunks: readonly StreamChunkKind[];
  /**
   * True when the platform shows its own Stop on a stream (Teams, Slack agent sessions): a stop
   * there fails later calls with `stopped-by-user`, which cancels the run and reaches the product's
   * `onStop` handler; nothing is re-posted.
   */
  readonly platformStop: boolean;
  /** Most characters of text one call may carry (Slack 12 000); longer text goes in several calls. Absent: no limit. */
  readonly maxTextCharsPerCall?: number;
  /**
   * True when a stream's closing message holds only the card's share of the answer (Teams: a message has a
   * size limit): after the final stream call the core sends the renderer's continuation parts
   * (`renderContinuations`) as replies to the stream message, then settles the final. Absent: the stream
   * holds the whole answer and no continuation part is sent.
   */
  readonly continuationReplies?: boolean;
  /** Whether `card` is streamed (Slack: only thread replies). Absent: every card. */
  appliesTo?(card: StreamCandidate<Target>): boolean;
  readonly transport: StreamTransport<Target>;
}

/** The status a stream task step has for a tool line's state. */
export function streamTaskStatus(state: ToolLineState): StreamTask['status'] {
  switch (state) {
    case 'running':
      return 'in_progress';
    case 'finished':
      return 'complete';
    case 'failed':
    case 'orphan':
    case 'interrupted':
      return 'error';
  }
}

/**
 * The refresh margin of a lifetime (see {@link StreamLifetime.rollOverMarginMs}), in ms: at most half
 * the shorter limit (a margin as long as the stream's life would roll over at every call, for ever).
 */
export function rollOverMarginMs(lifetime: StreamLifetime): number {
  const shortest = Math.min(lifetime.maxAgeMs ?? Number.POSITIVE_INFINITY, lifetime.idleExpiryMs ?? Number.POSITIVE_INFINITY);
  const most = Number.isFinite(shortest) ? Math.floor(shortest / 2) : Number.POSITIVE_INFINITY;
  if (lifetime.rollOverMarginMs !== undefined) return Math.min(lifetime.rollOverMarginMs, most);
  return Number.isFinite(shortest) ? Math.min(30_000, Math.floor(shortest / 10)) : 0;
}

/**
 * Why a stream lifetime cannot work, or undefined: each limit a positive number of ms, and the
 * margin (when given) a number of ms of at least 0 and under half the shorter limit. With the
 * channel's `perCardIntervalMs` (the least time between two calls of a card), also a stream
 * whose life leaves no call after its start within its margin: with `maxAgeMs` set, the interval
 * must be under `maxAgeMs` less the margin ({@link rollOverMarginMs}), or no stream could be
 * stopped (nor take its final) before the platform ends it, and every start would be followed by
 * another.
 */
export function streamLifetimeProblem(lifetime: StreamLifetime, perCardIntervalMs?: number): { field: string; value: unknown; reason: string } | undefined {
  for (const field of ['maxAgeMs', 'idleExpiryMs'] as const) {
    const value = lifetime[field];
    if (value !== undefined && !(typeof value === 'number' && value > 0)) return { field, value, reason: 'must be a positive number of ms' };
  }
  const margin = lifetime.rollOverMarginMs;
  if (margin !== undefined) {
    if (!(typeof margin === 'number' && margin >= 0)) return { field: 'rollOverMarginMs', value: margin, reason: 'must be a number of ms ≥ 0' };
    const shortest = Math.min(lifetime.maxAgeMs ?? Number.POSITIVE_INFINITY, lifetime.idleExpiryMs ?? Number.POSITIVE_INFINITY);
    if (margin * 2 > shortest) return { field: 'rollOverMarginMs', value: margin, reason: `must be at most half the stream's shorter limit (${shortest} ms): the core would roll over at every call` };
  }
  return perCardIntervalMs === undefined ? undefined : streamPacingProblem(lifetime, perCardIntervalMs);
}

/**
 * Why a card paced at `perCardIntervalMs` cannot keep a stream of `lifetime`, or undefined (see
 * {@link streamLifetimeProblem}): with `maxAgeMs` set, the interval must be under `maxAgeMs` less
 * the roll-over margin.
 */
export function streamPacingProblem(lifetime: StreamLifetime, perCardIntervalMs: number): { field: 'perCardIntervalMs'; value: number; reason: string } | undefined {
  const { maxAgeMs } = lifetime;
  if (maxAgeMs === undefined) return undefined;
  const margin = rollOverMarginMs(lifetime);
  const usable = maxAgeMs - margin;
  if (perCardIntervalMs < usable) return undefined;
  return {
    field: 'perCardIntervalMs',
    value: perCardIntervalMs,
    reason: `must be under the stream's life less its roll-over margin (maxAgeMs ${maxAgeMs} − ${margin} = ${usable} ms): no call could follow a stream's start in time to stop it; lower the interval or lengthen the stream's life`,
  };
}
