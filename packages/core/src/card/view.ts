import type { InteractionOption, PlanItem } from '../events/contract.js';
import type { CardImage } from './images.js';

/**
 * The card view: everything a renderer needs to draw one card, already reduced from events.
 * Renderers never see events; they get a {@link CardView} and return a platform payload.
 */

/** Card language. */
export type Locale = 'zh-CN' | 'en';

/** Lifecycle status shown on the card. The last three are terminal. */
export type CardStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** Statuses after which a card never changes again. */
export const TERMINAL_STATUSES: ReadonlySet<CardStatus> = new Set(['completed', 'failed', 'cancelled']);

/** True when `status` is completed, failed or cancelled. */
export function isTerminalStatus(status: CardStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/**
 * State of one tool call on the card. `orphan`: a result arrived before its start (no timer);
 * `interrupted`: the round or run ended while the call was still running.
 */
export type ToolLineState = 'running' | 'finished' | 'failed' | 'orphan' | 'interrupted';

/** One tool call as the card shows it, keyed by `callId`. */
export interface ToolLine {
  readonly callId: string;
  /** Tool name, e.g. `shell`, `read_file`; the call id for an orphan result. */
  readonly name: string;
  /** What the call works on: the command of a shell call, the path of a file call…; may be empty. */
  readonly detail: string;
  readonly state: ToolLineState;
  /** One-line result of a finished call. */
  readonly summary?: string;
  /** Epoch ms of the first `tool.started`; absent for orphan results. */
  readonly startedAt?: number;
  /** Epoch ms of `tool.finished`. */
  readonly finishedAt?: number;
  /** Running time so far in ms (running tools only; 0 otherwise). */
  readonly elapsedMs: number;
  /** The subagent call (Claude `Task`) this call was made by; absent for the main agent's calls. */
  readonly parentCallId?: string;
  /** On a subagent's call: how many tool calls its subagent made (also on its line's text). */
  readonly subagentTools?: number;
  /**
   * The line as text in the card's locale, e.g. `shell: \`npm test\`（执行中 · 3 秒）` or
   * `read_file：执行中…（1 分 30 秒）`. No duration under 1 s; finished calls show their summary.
   */
  readonly text: string;
}

/**
 * A file the agent produced, as the card shows it (`attachment` event, `ProgressCard.attach`):
 * - `pending`: the channel is uploading it;
 * - `uploaded`: it is in the chat (`url` when the platform gives a link to it);
 * - `not-uploaded`: the channel could not or would not upload it (`reason` says why: outside the
 *   opt-in roots, too large, refused by the platform, a channel without uploads); the card names it.
 */
export interface CardAttachment {
  /** `file_1`, `file_2`… in the order the run attached them. */
  readonly id: string;
  /** File name shown, one line, at most 200 characters. */
  readonly name: string;
  /** The path the agent gave (read by the channel inside its opt-in roots only). */
  readonly path: string;
  readonly state: 'pending' | 'uploaded' | 'not-uploaded';
  /** Link to the uploaded file, when the platform gives one. */
  readonly url?: string;
  /** Why the file was not uploaded (one line). */
  readonly reason?: string;
}

/** Raw footer data; format it with `formatFooter`. Token counts are tokens, times epoch ms. */
export interface FooterFields {
  /** Run duration in ms (frozen at the terminal event). */
  readonly durationMs: number;
  readonly model?: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly contextTokens?: number;
  readonly contextWindow?: number;
  /** `contextTokens / contextWindow` in percent, rounded; absent when either is unknown. */
  readonly contextPercent?: number;
  /** Tool calls seen in the run. */
  readonly toolCount: number;
  /** Tool calls that failed (shown on a final card, e.g. `Tools · 164 · 23 failed`); absent: none known. */
  readonly failedToolCount?: number;
  /** True on the final card (the run completed, failed or was cancelled). */
  readonly final?: boolean;
  /**
   * What the run cost in US dollars: the source's own total (Claude `total_cost_usd`) or the tokens
   * priced with the product's price table; absent when unknown.
   */
  readonly costUsd?: number;
  /**
   * On a final card, when the channel has a monthly call quota (`monthlyQuota`): the platform calls
   * this card message spent (its final's call included) and the quota. The debug footer shows it.
   */
  readonly quota?: { readonly calls: number; readonly monthlyQuota: number };
  /**
   * Epoch ms the footer's clock time shows: when the run ended on a final card; otherwise when the
   * view was made, but never before the card's latest event.
   */
  readonly sentAt: number;
}

/** An open question the card offers controls for (see `interaction.requested`). */
export interface PendingInteraction {
  readonly id: string;
  readonly prompt: string;
  /** One button each, in order. */
  readonly options: readonly InteractionOption[];
  /** True when a free text answer is asked for (a text box and a send button). */
  readonly freeText: boolean;
  /**
   * Short code naming the interaction in a text reply (`/approve 3F2A`), for a channel whose
   * callbacks are not configured: the renderer shows the reply to type instead of buttons.
   */
  readonly code: string;
}

/** A decided interaction, as the card shows it. */
export interface DecidedInteraction {
  readonly id: string;
  readonly prompt: string;
  /** The chosen option's label, or the free text answer. */
  readonly answer: string;
  /** Display name (else id) of who decided; absent on a timeout. */
  readonly by?: string;
  /** `positive` (approved / answered, green), `negative` (denied, red), `timeout` (red, nobody decided). */
  readonly tone: 'positive' | 'negative' | 'timeout';
  /** Epoch ms. */
  readonly at: number;
}

/**
 * The card's controls. Every control names `cardId` (this card message, one per turn) so a click
 * on a control of an earlier run or turn is recognised and does nothing.
 */
export interface CardControls {
  readonly cardId: string;
  /** The question waiting for a click (at most one at a time: the latest). */
  readonly pending?: PendingInteraction;
  /** True while the run can be stopped from the card (`ProgressCard.onStop`). */
  readonly stop: boolean;
  /**
   * True when the channel's card callbacks could not start (`ChannelInteraction.start` threw, e.g.
   * the platform refused the long connection): clicks would go nowhere, so the renderer draws the
   * reply to type (`/approve 3F2A`, see `PendingInteraction.code`) instead of buttons, and no Stop
   * button.
   */
  readonly replyByText?: boolean;
}

/**
 * A line the core adds about the card's liveness, shown as a side note (format it with
 * `noticeText`):
 * - `no-progress`: no event arrived since `since` (the run may have stalled; see `stallMs`);
 * - `updates-interrupted`: the platform refused the card's updates from `since` on, so what it
 *   showed in between may have been behind.
 */
export interface CardNotice {
  readonly kind: 'no-progress' | 'updates-interrupted';
  /** Epoch ms. */
  readonly since: number;
}

/** The agent's plan as a checklist: items in order and how many are completed ("3 / 5"). */
export interface PlanView {
  readonly items: readonly PlanItem[];
  /** Items whose status is `completed`. */
  readonly done: number;
  readonly total: number;
}

/** One file the run changed, with its line counts when the source knows them. */
export interface ChangedFile {
  readonly path: string;
  /** `added`: created in this run; `deleted`; `modified` otherwise. */
  readonly kind: 'added' | 'modified' | 'deleted';
  /** Lines added over every change of the file; absent when unknown. */
  readonly added?: number;
  /** Lines removed over every change of the file; absent when unknown. */
  readonly removed?: number;
}

/**
 * How much a card shows (per channel, chat or run):
 * - `quiet`: nothing while the run goes on; one card at the end.
 * - `compact`: the status line and the current tool call while running (no thinking, no answer
 *   text until the end, no tool history); the final card shows the answer, plan and changed files.
 * - `detailed` (default): everything.
 */
export type Verbosity = 'quiet' | 'compact' | 'detailed';

/** The verbosity profiles, for schemas and checks. */
export const VERBOSITY_PROFILES: readonly Verbosity[] = ['quiet', 'compact', 'detailed'];

/** What every renderer gets. Times are epoch ms, durations ms. */
export interface CardView {
  readonly status: CardStatus;
  readonly locale: Locale;
  readonly title: string;
  /** Current round, 0 before the first `round.started`. */
  readonly round: number;
  /** Released thinking text (see the verbose output buffer). */
  readonly thinking: string;
  /**
   * How long the agent thought, in ms, over the whole run: each stretch from the event before its
   * first thinking text to the next answer text, tool call, question, round or the end (format the
   * reasoning header with `thinkingHeading`). 0 when it did not think.
   */
  readonly thinkingMs?: number;
  /** True while the agent is thinking now (the reasoning section stays open; its time counts up). */
  readonly thinkingNow?: boolean;
  /** Released answer text; on a completed card, the final answer. Images written in it are in {@link images} instead. */
  readonly answer: string;
  /**
   * Set when the card holds only part of the answer (cut at `MAX_ANSWER_CHARS`; {@link answer} then
   * ends with the core's "N more characters not shown" line): the length of the whole answer the
   * agent wrote, in UTF-16 code units. A channel that says how long the answer is counts this, not
   * the part the card holds.
   */
  readonly answerSourceChars?: number;
  /**
   * Images to show (tool results' first, then the answer's; at most `MAX_CARD_IMAGES`): a channel
   * uploads each through its image API and shows it, or shows its `alt` (`[image: alt]`) in its place.
   */
  readonly images: readonly CardImage[];
  /**
   * Files the agent attached (`attachment` event), in order: uploaded into the chat by the channel
   * (the final card names them) or named with why they were not. Absent or empty: none.
   */
  readonly attachments?: readonly CardAttachment[];
  /** Tool calls in start order. */
  readonly tools: readonly ToolLine[];
  /** Prompt shown while `status` is `waiting`. */
  readonly waitingFor?: string;
  /** Error text of a failed run, reason of a cancelled one. */
  readonly error?: string;
  readonly footer: FooterFields;
  /** Epoch ms of the run start. */
  readonly startedAt: number;
  /** Run time in ms; frozen at the terminal event. */
  readonly elapsedMs: number;
  /** True when at least one tool is running (the ticker keeps refreshing this card). */
  readonly hasRunningTools: boolean;
  /**
   * Buttons to draw. Absent on a card that never had any; present but empty (no question, no Stop)
   * once they are gone (decided, removed, run ended), so a renderer can clear what it drew.
   */
  readonly controls?: CardControls;
  /** Decided interactions, oldest first (the last few). */
  readonly decisions?: readonly DecidedInteraction[];
  /** Set while the card has a liveness notice to show (running cards only). */
  readonly notice?: CardNotice;
  /** The agent's latest plan; absent when it keeps none. */
  readonly plan?: PlanView;
  /** Files the run changed, in the order first changed (empty when none). */
  readonly changedFiles: readonly ChangedFile[];
  /**
   * Set on a running card that has had no event for the quiet period (default 60 s): epoch ms of
   * the latest event, for "no new progress since 12:03". Absent otherwise.
   */
  readonly noProgressSince?: number;
}
