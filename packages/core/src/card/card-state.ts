import type { AgentEvent, PlanItem } from '../events/contract.js';
import { ChangedFiles } from './changed-files.js';
import { cardImages, takeAnswerImages, ToolImages, type AnswerImages } from './images.js';
import { CostMeter, type PriceTable } from './cost.js';
import { DEFAULT_QUIET_PERIOD_MS, noProgressSince } from './liveness.js';
import { toPlanView } from './plan.js';
import { DEFAULT_TEXT_BUFFER_LIMITS, TextBuffer, type TextBufferLimits } from './text-buffer.js';
import { wellFormed } from './format/text.js';
import { InteractionLedger } from './interaction-state.js';
import { boundedJson, readableArgs } from './bounded-json.js';
import { toToolLine, toolDetail, type ToolCallRecord } from './tool-lines.js';
import type { CardStatus, CardView, Locale } from './view.js';

/**
 * How much an event changed what the card shows, in the delivery's order of value (terminal states are flushed first):
 * `terminal` > `structural` (a tool started or finished, new answer text, a status change…) >
 * `none` (nothing visible changed, e.g. text still buffered). `elapsed` is only made by the ticker.
 */
export type ChangeKind = 'none' | 'elapsed' | 'structural' | 'terminal';

/**
 * Argument text kept per call for its detail line, in characters. Streamed arguments (a file write
 * carries the whole file) are re-read on every delta, so only their start is kept: the detail keys
 * (`command`, `path`…) come first in practice.
 */
const MAX_ARG_CHARS = 16_384;

/** Allowed status transitions; terminal statuses have none. */
const STATUS_TRANSITIONS: Readonly<Record<CardStatus, readonly CardStatus[]>> = {
  running: ['waiting', 'completed', 'failed', 'cancelled'],
  waiting: ['running', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Result of {@link CardState.apply}. */
export interface ApplyResult {
  readonly change: ChangeKind;
  /** Set when the event was dropped: it came after the terminal event. */
  readonly ignored?: 'after-terminal';
  /** True when the text buffer reached a threshold and released its text. */
  readonly released?: boolean;
}

/** Options of a {@link CardState}. */
export interface CardStateOptions {
  /** Epoch ms the run started (a later `run.started.at` replaces it). */
  readonly startedAt: number;
  readonly locale?: Locale;
  readonly title?: string;
  readonly textBuffer?: TextBufferLimits;
  /** Id of the card message this state draws; its controls name it (`CardControls.cardId`). No controls without it. */
  readonly cardId?: string;
  /**
   * After this long with no event (ms), a running card says "no new progress since …"
   * (default 60 000; 0 turns the note off).
   */
  readonly quietPeriodMs?: number;
  /** Prices per model to show the run's cost from its token usage (see `PriceTable`). */
  readonly prices?: PriceTable;
}

/**
 * Pure state of one card: agent events in, {@link CardView} out. No timers, no I/O; time comes in
 * as arguments. Events after the terminal event are ignored.
 */
export class CardState {
  private status: CardStatus = 'running';
  private locale: Locale;
  private title: string;
  private round = 0;
  private thinking = '';
  private answer = '';
  private finalAnswer: string | undefined;
  private waitingFor: string | undefined;
  /** The tool call that asked the user; its `tool.finished` ends the wait. */
  private waitingCallId: string | undefined;
  /** The call started last (the one a `interaction.requested` without `callId` belongs to). */
  private lastStartedCallId: string | undefined;
  /** Last character of the answer so far (shown or buffered); '' before any. */
  private answerEnd = '';
  /** True when a tool call or a round came between answer segments: the next one starts a new paragraph. */
  private answerBreakDue = false;
  private error: string | undefined;
  private startedAt: number;
  private endedAt: number | undefined;
  /** Epoch ms of the latest event applied (the card's own time, e.g. a replayed trace's stamps). */
  private latestEventAt = Number.NEGATIVE_INFINITY;
  private readonly calls = new Map<string, ToolCallRecord>();
  private runningCount = 0;
  private model: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private contextTokens: number | undefined;
  private contextWindow: number | undefined;
  private readonly buffer: TextBuffer;
  private readonly interactions = new InteractionLedger();
  private readonly cardId: string | undefined;
  /** Epoch ms of the last event when the run was found stalled; cleared by the next event. */
  private stalledSince: number | undefined;
  private plan: readonly PlanItem[] = [];
  private readonly files = new ChangedFiles();
  private readonly toolImages = new ToolImages();
  /** The last answer taken apart into text and images (the view asks often, the answer changes rarely). */
  private answerImages: { readonly answer: string; readonly result: AnswerImages } | undefined;
  private readonly cost: CostMeter;
  /** Epoch ms (the card's clock) the latest event arrived: the liveness note counts from it. */
  private lastArrivalAt: number;
  private readonly quietPeriodMs: number;

  constructor(options: CardStateOptions) {
    this.cardId = options.cardId;
    this.startedAt = options.startedAt;
    this.lastArrivalAt = options.startedAt;
    this.quietPeriodMs = options.quietPeriodMs ?? DEFAULT_QUIET_PERIOD_MS;
    this.cost = new CostMeter(options.prices);
    this.locale = options.locale ?? 'zh-CN';
    this.title = wellFormed(options.title ?? '');
    this.buffer = new TextBuffer(options.textBuffer ?? DEFAULT_TEXT_BUFFER_LIMITS);
  }

  /** Current status. */
  get currentStatus(): CardStatus {
    return this.status;
  }

  /** True once a terminal event was applied. */
  get isTerminal(): boolean {
    return STATUS_TRANSITIONS[this.status].length === 0;
  }

  /** Current round (0 before the first `round.started`). */
  get currentRound(): number {
    return this.round;
  }

  /** True while at least one tool call is running. */
  get hasRunningTools(): boolean {
    return this.runningCount > 0;
  }

  /** Epoch ms of the oldest buffered text segment; undefined when none is pending. */
  get pendingTextSince(): number | undefined {
    return this.buffer.pendingSince;
  }

  /** Epoch ms (the card's clock) the latest event arrived. */
  get lastEventArrivedAt(): number {
    return this.lastArrivalAt;
  }

  /** The quiet period of the liveness note in ms (0: off). */
  get quietPeriod(): number {
    return this.quietPeriodMs;
  }

  /** True when anything visible has been shown (a tool, text, a title). */
  get hasContent(): boolean {
    return this.calls.size > 0 || this.plan.length > 0 || this.answer !== '' || this.thinking !== '' || !this.buffer.isEmpty;
  }

  /** Applies one event; `now` (epoch ms) stands in for a missing `event.at`. */
  apply(event: AgentEvent, now: number): ApplyResult {
    if (this.isTerminal) return { change: 'none', ignored: 'after-terminal' };
    // An event after a stall resumes the card: the notice goes, whatever the event changes.
    const resumed = this.stalledSince !== undefined;
    this.stalledSince = undefined;
    const result = this.applyEvent(event, now);
    return resumed && result.change === 'none' ? { ...result, change: 'structural' } : result;
  }

  private applyEvent(event: AgentEvent, now: number): ApplyResult {
    const at = event.at ?? now;
    // The quiet period is the live wait since something arrived, whatever time the event itself tells.
    this.lastArrivalAt = Math.max(this.lastArrivalAt, now);
    this.latestEventAt = Math.max(this.latestEventAt, at);
    switch (event.type) {
      case 'run.started': {
        this.startedAt = event.at ?? this.startedAt;
        if (event.title !== undefined) this.title = wellFormed(event.title);
        if (event.locale !== undefined) this.locale = event.locale;
        if (event.model !== undefined) this.model = event.model;
        return { change: 'structural' };
      }
      case 'round.started': {
        this.answerBreakDue = true;
        const changed = this.round !== event.round;
        this.round = event.round;
        return { change: this.resume() || changed ? 'structural' : 'none' };
      }
      case 'round.ended':
        return { change: this.interruptRunning(at) ? 'structural' : 'none' };
      case 'thinking.delta':
      case 'answer.delta': {
        if (!event.text) return { change: 'none' };
        const resumed = this.resume();
        const text = event.type === 'answer.delta' ? this.answerSegment(event.text) : event.text;
        const full = this.buffer.push(event.type === 'answer.delta' ? 'answer' : 'thinking', text, at);
        if (full) this.releaseText();
        return { change: full || resumed ? 'structural' : 'none', released: full };
      }
      case 'tool.started':
        return { change: this.startTool(event.callId, event.name, event.args, at) };
      case 'tool.args_delta': {
        const call = this.calls.get(event.callId);
        if (!call || call.args.length >= MAX_ARG_CHARS) return { change: 'none' };
        call.args = wellFormed((call.args + event.delta).slice(0, MAX_ARG_CHARS));
        const detail = toolDetail(call.args);
        const changed = detail !== call.detail;
        call.detail = detail;
        return { change: changed ? 'structural' : 'none' };
      }
      case 'tool.finished': {
        // The call that asked the user ran: the user has answered.
        const resumed = event.callId === this.waitingCallId ? this.resume() : false;
        const change = this.finishTool(event.callId, event.summary === undefined ? undefined : wellFormed(event.summary), event.isError === true, at);
        const imaged = event.images ? this.toolImages.add(event.images) : false;
        return { change: resumed || imaged ? 'structural' : change };
      }
      case 'usage': {
        if (event.inputTokens !== undefined) this.inputTokens = (this.inputTokens ?? 0) + event.inputTokens;
        if (event.outputTokens !== undefined) this.outputTokens = (this.outputTokens ?? 0) + event.outputTokens;
        if (event.contextTokens !== undefined) this.contextTokens = event.contextTokens;
        if (event.contextWindow !== undefined) this.contextWindow = event.contextWindow;
        if (event.model !== undefined) this.model = event.model;
        this.cost.add(event.model ?? this.model, event.inputTokens, event.outputTokens, event.totalCostUsd);
        return { change: 'structural' };
      }
      case 'plan.updated':
        // A plan update is progress: it ends a wait like any other activity.
        this.resume();
        this.plan = event.items;
        return { change: 'structural' };
      case 'file.changed':
        this.files.add(event);
        return { change: 'structural' };
      case 'interaction.requested':
        this.interactions.request(event);
        this.waitingFor = wellFormed(event.prompt);
        this.waitingCallId = event.callId ?? this.lastStartedCallId;
        this.moveTo('waiting');
        return { change: 'structural' };
      case 'interaction.resolved': {
        const decided = this.interactions.resolve(event, at);
        return { change: this.resume() || decided ? 'structural' : 'none' };
      }
      case 'run.completed':
        this.releaseText();
        if (event.answer?.trim()) this.finalAnswer = event.answer;
        return this.end('completed', at);
      case 'run.failed':
        this.releaseText();
        this.error = event.error;
        return this.end('failed', at);
      case 'run.cancelled':
        this.releaseText();
        this.error = event.reason;
        return this.end('cancelled', at);
    }
  }

  /** Shows or hides the Stop button (no effect after the run ended); returns true when the card changed. */
  setStoppable(on: boolean): boolean {
    return !this.isTerminal && this.interactions.setStoppable(on);
  }

  /** The channel's callbacks could not start: replies to type instead of buttons. Returns true when the card changed. */
  useTextReplies(): boolean {
    return !this.isTerminal && this.interactions.useTextReplies();
  }

  /** Moves buffered text onto the card; returns true when there was any. */
  releaseText(): boolean {
    if (this.buffer.isEmpty) return false;
    const { answer, thinking } = this.buffer.drain();
    this.answer += wellFormed(answer);
    this.thinking += wellFormed(thinking);
    return true;
  }

  /** The card as it looks at `now` (epoch ms). */
  /**
   * No event arrived for a while (see `stallMs`): a running card shows `no progress since` its
   * latest event until the next event. Returns the change to deliver (`none` when already shown or terminal).
   */
  markStalled(since: number): ChangeKind {
    if (this.isTerminal || this.stalledSince !== undefined) return 'none';
    this.stalledSince = since;
    return 'structural';
  }

  /** True while the card shows that the run made no progress. */
  get isStalled(): boolean {
    return this.stalledSince !== undefined;
  }

  view(now: number): CardView {
    const noProgress = this.status === 'running' ? noProgressSince(this.lastArrivalAt, now, this.quietPeriodMs) : undefined;
    const end = this.endedAt ?? now;
    const elapsedMs = Math.max(0, end - this.startedAt);
    const tools = [];
    let toolCount = 0;
    for (const call of this.calls.values()) {
      tools.push(toToolLine(call, end, this.locale));
      if (call.state !== 'orphan') toolCount += 1;
    }
    const answer = this.answerWithoutImages(this.finalAnswer ?? this.answer);
    const contextPercent = this.contextTokens !== undefined && this.contextWindow
      ? Math.round((this.contextTokens / this.contextWindow) * 100)
      : undefined;
    return {
      status: this.status,
      locale: this.locale,
      title: this.title,
      round: this.round,
      thinking: this.thinking,
      answer: answer.text,
      images: cardImages(this.toolImages.list(), answer.images),
      tools,
      waitingFor: this.status === 'waiting' ? this.waitingFor : undefined,
      error: this.error,
      footer: {
        durationMs: elapsedMs,
        model: this.model,
        inputTokens: this.inputTokens,
        outputTokens: this.outputTokens,
        contextTokens: this.contextTokens,
        contextWindow: this.contextWindow,
        contextPercent,
        toolCount,
        costUsd: this.cost.totalUsd,
        // The run's end on a final card, else now — never before the latest event: in a fast replay
        // (or after a retried final) the wall-derived `now` could otherwise put a later card's clock
        // time before an earlier card's.
        sentAt: this.endedAt ?? Math.max(now, this.latestEventAt),
      },
      startedAt: this.startedAt,
      elapsedMs,
      hasRunningTools: this.runningCount > 0,
      controls: this.interactions.controls(this.cardId, this.isTerminal),
      decisions: this.interactions.decisions(),
      plan: toPlanView(this.plan),
      changedFiles: this.files.list(),
      noProgressSince: noProgress,
      // The stall shows its own notice only when the quiet-period note is off (else it says the same).
      ...(this.stalledSince !== undefined && !this.isTerminal && noProgress === undefined ? { notice: { kind: 'no-progress' as const, since: this.stalledSince } } : {}),
    };
  }

  private answerWithoutImages(text: string): AnswerImages {
    if (this.answerImages?.answer !== text) this.answerImages = { answer: text, result: takeAnswerImages(text) };
    return this.answerImages.result;
  }

  /**
   * `text` as the next answer segment: when a tool call or a new round came since the last answer
   * text, it starts a new paragraph (a blank line), so "first." and "The timeout" are not glued.
   */
  private answerSegment(text: string): string {
    const separate = this.answerBreakDue && this.answerEnd !== '' && !/\s/.test(this.answerEnd) && !/^\s/.test(text);
    this.answerBreakDue = false;
    const segment = separate ? `\n\n${text}` : text;
    this.answerEnd = segment.slice(-1);
    return segment;
  }

  private startTool(callId: string, rawName: string, args: string | Record<string, unknown> | undefined, at: number): ChangeKind {
    const resumed = this.resume();
    const name = wellFormed(rawName);
    this.answerBreakDue = true;
    this.lastStartedCallId = callId;
    const existing = this.calls.get(callId);
    // Object arguments may be cyclic, hold BigInts, nest deeply or throw from a getter: shown as far as they can be.
    if (args !== undefined && typeof args !== 'string') args = readableArgs(args);
    const argText = wellFormed((args === undefined ? '' : typeof args === 'string' ? args : boundedJson(args, MAX_ARG_CHARS)).slice(0, MAX_ARG_CHARS));
    if (existing) {
      // A repeated start (e.g. re-sent with full args) keeps the first start time.
      if (existing.state === 'orphan') return resumed ? 'structural' : 'none';
      existing.name = name;
      if (argText) {
        existing.args = argText;
        existing.detail = wellFormed(toolDetail(args));
      }
      return 'structural';
    }
    this.calls.set(callId, { callId, name, args: argText, detail: wellFormed(toolDetail(args)), state: 'running', startedAt: at });
    this.runningCount += 1;
    return 'structural';
  }

  private finishTool(callId: string, summary: string | undefined, isError: boolean, at: number): ChangeKind {
    const call = this.calls.get(callId);
    if (!call) {
      // A result before its start: a line with no timer.
      this.calls.set(callId, { callId, name: callId, args: '', detail: '', state: 'orphan', summary, finishedAt: at });
      return 'structural';
    }
    if (call.state === 'running') this.runningCount -= 1;
    else if (call.state !== 'interrupted') return 'none';
    call.state = isError ? 'failed' : 'finished';
    call.summary = summary;
    call.finishedAt = at;
    return 'structural';
  }

  private interruptRunning(at: number): boolean {
    if (this.runningCount === 0) return false;
    for (const call of this.calls.values()) {
      if (call.state === 'running') {
        call.state = 'interrupted';
        call.finishedAt = at;
      }
    }
    this.runningCount = 0;
    return true;
  }

  private end(status: CardStatus, at: number): ApplyResult {
    if (status === 'completed') {
      for (const call of this.calls.values()) {
        if (call.state === 'running') {
          call.state = 'finished';
          call.finishedAt = at;
        }
      }
      this.runningCount = 0;
    } else {
      this.interruptRunning(at);
    }
    this.moveTo(status);
    this.endedAt = Math.max(at, this.startedAt);
    return { change: 'terminal' };
  }

  /** Activity after a prompt means the user answered: back to running. */
  private resume(): boolean {
    if (this.status !== 'waiting') return false;
    this.waitingFor = undefined;
    this.waitingCallId = undefined;
    this.moveTo('running');
    return true;
  }

  private moveTo(next: CardStatus): void {
    if (next === this.status) return;
    if (!STATUS_TRANSITIONS[this.status].includes(next)) {
      throw new Error(`card status cannot move from ${this.status} to ${next}`);
    }
    this.status = next;
  }
}
