import type { AgentEvent, PlanItem } from '../events/contract.js';
import { capText, cutNotice, MAX_ERROR_CHARS, MAX_TOOL_SUMMARY_CHARS } from './card-limits.js';
import { ChangedFiles } from './changed-files.js';
import { CardAttachments, type CardAttachment } from './attachments.js';
import { cardImages, ToolImages } from './images.js';
import type { PriceTable } from './cost.js';
import { DEFAULT_QUIET_PERIOD_MS, noProgressSince } from './liveness.js';
import { toPlanView } from './plan.js';
import { RunStatus } from './run-status.js';
import { StreamedText } from './streamed-text.js';
import { DEFAULT_TEXT_BUFFER_LIMITS, type TextBufferLimits } from './text-buffer.js';
import { wellFormed } from './format/text.js';
import { InteractionLedger } from './interaction-state.js';
import { detectLocale, FALLBACK_LOCALE, type LocaleSetting } from './locale.js';
import { redactSecrets, type Redact } from './redaction.js';
import { ThinkingTime } from './thinking-time.js';
import { ToolCalls } from './tool-calls.js';
import { UsageTally } from './usage.js';
import type { CardStatus, CardView, Locale } from './view.js';

/**
 * How much an event changed what the card shows, in the delivery's order of value (terminal states are flushed first):
 * `terminal` > `structural` (a tool started or finished, new answer text, a status change…) >
 * `none` (nothing visible changed, e.g. text still buffered). `elapsed` is only made by the ticker.
 */
export type ChangeKind = 'none' | 'elapsed' | 'structural' | 'terminal';

/** Result of {@link CardState.apply}. */
export interface ApplyResult {
  readonly change: ChangeKind;
  /** Set when the event was dropped: it came after the terminal event. */
  readonly ignored?: 'after-terminal';
  /** True when the text buffer reached a threshold and released its text. */
  readonly released?: boolean;
}

/** Events after which the agent is no longer thinking (a new stretch starts with the next thinking text). */
const THINKING_ENDS: ReadonlySet<AgentEvent['type']> = new Set([
  'answer.delta',
  'tool.started',
  'round.started',
  'round.ended',
  'interaction.requested',
  'run.completed',
  'run.failed',
  'run.cancelled',
]);

/** Options of a {@link CardState}. */
export interface CardStateOptions {
  /** Epoch ms the run started (a later `run.started.at` replaces it). */
  readonly startedAt: number;
  /**
   * The card's language: a {@link Locale}, or `auto` to follow the run's own text (its title, else
   * its answer); default {@link CardStateOptions.defaultLocale}. A `run.started` with `locale` replaces it.
   */
  readonly locale?: LocaleSetting;
  /**
   * The channel's language (its `locale` switch): wins over {@link locale} and over `run.started`'s,
   * so every text the core makes for the card (tool lines, statuses, notices) is in it.
   */
  readonly lockedLocale?: Locale;
  /** Language when none is set, or `auto` finds no text to go by: the channel's default (default `zh-CN`). */
  readonly defaultLocale?: Locale;
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
  /**
   * Replaces secrets in every text the card shows (title, tool details and summaries, thinking,
   * answer, questions, plan, error); default {@link redactSecrets}, `NO_REDACTION` turns it off.
   */
  readonly redact?: Redact;
}

/**
 * Pure state of one card: agent events in, {@link CardView} out. No timers, no I/O; time comes in
 * as arguments. Events after the terminal event are ignored. It routes each event to the parts
 * that keep the run's status, text, tool calls, usage, plan, files and questions, and draws the
 * view from them.
 */
export class CardState {
  private readonly status = new RunStatus();
  private locale: LocaleSetting | undefined;
  private readonly defaultLocale: Locale;
  private readonly lockedLocale: Locale | undefined;
  private title: string;
  private round = 0;
  private readonly text: StreamedText;
  private readonly tools: ToolCalls;
  private readonly thinkingTime = new ThinkingTime();
  private readonly redact: Redact;
  private readonly usage: UsageTally;
  private error: string | undefined;
  private startedAt: number;
  private endedAt: number | undefined;
  /** Epoch ms of the latest event applied (the card's own time, e.g. a replayed trace's stamps). */
  private latestEventAt = Number.NEGATIVE_INFINITY;
  private readonly interactions = new InteractionLedger();
  private readonly cardId: string | undefined;
  /** Epoch ms of the last event when the run was found stalled; cleared by the next event. */
  private stalledSince: number | undefined;
  private plan: readonly PlanItem[] = [];
  private readonly files = new ChangedFiles();
  private readonly toolImages = new ToolImages();
  private readonly attachments = new CardAttachments();
  /** Epoch ms (the card's clock) the latest event arrived: the liveness note counts from it. */
  private lastArrivalAt: number;
  private readonly quietPeriodMs: number;

  constructor(options: CardStateOptions) {
    this.cardId = options.cardId;
    this.startedAt = options.startedAt;
    this.lastArrivalAt = options.startedAt;
    this.quietPeriodMs = options.quietPeriodMs ?? DEFAULT_QUIET_PERIOD_MS;
    this.usage = new UsageTally(options.prices);
    this.lockedLocale = options.lockedLocale;
    this.locale = options.locale;
    this.defaultLocale = options.defaultLocale ?? FALLBACK_LOCALE;
    this.redact = options.redact ?? redactSecrets;
    this.title = this.redact(wellFormed(options.title ?? ''));
    this.tools = new ToolCalls(this.redact);
    this.text = new StreamedText(options.textBuffer ?? DEFAULT_TEXT_BUFFER_LIMITS, this.redact);
  }

  /** Current status. */
  get currentStatus(): CardStatus {
    return this.status.current;
  }

  /** True once a terminal event was applied. */
  get isTerminal(): boolean {
    return this.status.isTerminal;
  }

  /** Current round (0 before the first `round.started`). */
  get currentRound(): number {
    return this.round;
  }

  /** True while at least one tool call is running. */
  get hasRunningTools(): boolean {
    return this.tools.hasRunning;
  }

  /** Epoch ms of the oldest buffered text segment; undefined when none is pending. */
  get pendingTextSince(): number | undefined {
    return this.text.pendingSince;
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
    return !this.tools.isEmpty || this.plan.length > 0 || this.text.hasContent;
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
    const previousEventAt = this.latestEventAt;
    this.latestEventAt = Math.max(this.latestEventAt, at);
    if (event.type === 'thinking.delta') {
      if (event.text) this.thinkingTime.thought(at, Math.max(previousEventAt, this.startedAt));
    } else if (THINKING_ENDS.has(event.type)) {
      this.thinkingTime.moveOn(at);
    }
    switch (event.type) {
      case 'run.started': {
        this.startedAt = event.at ?? this.startedAt;
        if (event.title !== undefined) this.title = this.redact(wellFormed(event.title));
        if (event.locale !== undefined) this.locale = event.locale;
        this.usage.setModel(event.model);
        return { change: 'structural' };
      }
      case 'round.started': {
        this.text.breakParagraph();
        const changed = this.round !== event.round;
        this.round = event.round;
        return { change: this.status.resume() || changed ? 'structural' : 'none' };
      }
      case 'round.ended':
        return { change: this.tools.interruptRunning(at) ? 'structural' : 'none' };
      case 'thinking.delta':
      case 'answer.delta': {
        if (!event.text) return { change: 'none' };
        const resumed = this.status.resume();
        const full = this.text.push(event.type === 'answer.delta' ? 'answer' : 'thinking', event.text, at);
        return { change: full || resumed ? 'structural' : 'none', released: full };
      }
      case 'tool.started': {
        const resumed = this.status.resume();
        this.text.breakParagraph();
        const changed = this.tools.start(event.callId, event.name, event.args, at, event.parentCallId);
        return { change: resumed || changed ? 'structural' : 'none' };
      }
      case 'tool.args_delta':
        return { change: this.tools.addArgs(event.callId, event.delta) ? 'structural' : 'none' };
      case 'tool.finished': {
        // The call that asked the user ran: the user has answered.
        const resumed = event.callId === this.status.waitingCallId ? this.status.resume() : false;
        const changed = this.tools.finish(event.callId, event.summary === undefined ? undefined : wellFormed(capText(event.summary, MAX_TOOL_SUMMARY_CHARS).text), event.isError === true, at);
        const imaged = event.images ? this.toolImages.add(event.images) : false;
        return { change: resumed || imaged || changed ? 'structural' : 'none' };
      }
      case 'usage':
        this.usage.add(event);
        return { change: 'structural' };
      case 'plan.updated':
        // A plan update is progress: it ends a wait like any other activity.
        this.status.resume();
        this.plan = event.items.map((item) => ({ ...item, text: this.redact(item.text) }));
        return { change: 'structural' };
      case 'file.changed':
        this.files.add(event);
        return { change: 'structural' };
      case 'attachment':
        return { change: this.attachments.add({ ...event, path: event.path, ...(event.name !== undefined ? { name: this.redact(event.name) } : {}) }) ? 'structural' : 'none' };
      case 'interaction.requested': {
        const prompt = this.redact(event.prompt);
        this.interactions.request({ ...event, prompt });
        this.status.wait(prompt, event.callId ?? this.tools.lastStarted);
        return { change: 'structural' };
      }
      case 'interaction.resolved': {
        const decided = this.interactions.resolve(event, at);
        return { change: this.status.resume() || decided ? 'structural' : 'none' };
      }
      case 'run.completed':
        this.text.release();
        this.text.setFinalAnswer(event.answer);
        this.tools.finishRunning(at);
        return this.end('completed', at);
      case 'run.failed':
        this.text.release();
        this.error = this.redact(wellFormed(capText(event.error, MAX_ERROR_CHARS).text));
        this.tools.interruptRunning(at);
        return this.end('failed', at);
      case 'run.cancelled':
        this.text.release();
        this.error = event.reason === undefined ? undefined : this.redact(wellFormed(capText(event.reason, MAX_ERROR_CHARS).text));
        this.tools.interruptRunning(at);
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
    return this.text.release();
  }

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

  /** The card as it looks at `now` (epoch ms). */
  /** The attachment `id` waiting for its upload (`pending`), oldest first. */
  get pendingAttachments(): readonly CardAttachment[] {
    return this.attachments.list().filter((file) => file.state === 'pending');
  }

  /** Records an upload's outcome (even after the run ended: the final waits for it); true when the card changed. */
  settleAttachment(id: string, outcome: { readonly url?: string } | { readonly reason: string }): boolean {
    return this.attachments.settle(id, 'reason' in outcome ? { reason: this.redact(outcome.reason) } : outcome);
  }

  view(now: number): CardView {
    const status = this.status.current;
    const noProgress = status === 'running' ? noProgressSince(this.lastArrivalAt, now, this.quietPeriodMs) : undefined;
    const end = this.endedAt ?? now;
    const elapsedMs = Math.max(0, end - this.startedAt);
    const answer = this.text.shownAnswer();
    const locale = this.shownLocale(answer.text);
    const { tools, toolCount, failedToolCount } = this.tools.lines(end, locale);
    const usage = this.usage.footer();
    return {
      status,
      locale,
      title: this.title,
      round: this.round,
      thinking: this.text.thinkingDropped > 0 ? this.text.shownThinking + cutNotice('thinking', this.text.thinkingDropped, locale) : this.text.shownThinking,
      thinkingMs: this.thinkingTime.totalMs(end),
      thinkingNow: this.thinkingTime.active,
      answer: this.text.answerDropped > 0 ? answer.text + cutNotice('answer', this.text.answerDropped, locale) : answer.text,
      ...(this.text.answerDropped > 0 && { answerSourceChars: answer.text.length + this.text.answerDropped }),
      images: cardImages(this.toolImages.list(), answer.images),
      attachments: this.attachments.list(),
      tools,
      waitingFor: this.status.waitingFor,
      error: this.error,
      footer: {
        durationMs: elapsedMs,
        model: usage.model,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        contextTokens: usage.contextTokens,
        contextWindow: usage.contextWindow,
        contextPercent: usage.contextPercent,
        toolCount,
        failedToolCount,
        final: this.isTerminal,
        costUsd: usage.costUsd,
        // The run's end on a final card, else now — never before the latest event: in a fast replay
        // (or after a retried final) the wall-derived `now` could otherwise put a later card's clock
        // time before an earlier card's.
        sentAt: this.endedAt ?? Math.max(now, this.latestEventAt),
      },
      startedAt: this.startedAt,
      elapsedMs,
      hasRunningTools: this.tools.hasRunning,
      controls: this.interactions.controls(this.cardId, this.isTerminal),
      decisions: this.interactions.decisions(),
      plan: toPlanView(this.plan),
      changedFiles: this.files.list(),
      noProgressSince: noProgress,
      // The stall shows its own notice only when the quiet-period note is off (else it says the same).
      ...(this.stalledSince !== undefined && !this.isTerminal && noProgress === undefined ? { notice: { kind: 'no-progress' as const, since: this.stalledSince } } : {}),
    };
  }

  /** The language the card speaks now: the channel's locked one, else the one set, or with `auto` the title's, else the answer's, else the default. */
  private shownLocale(answer: string): Locale {
    if (this.lockedLocale !== undefined) return this.lockedLocale;
    if (this.locale === undefined) return this.defaultLocale;
    if (this.locale !== 'auto') return this.locale;
    return detectLocale(this.title) ?? detectLocale(answer) ?? this.defaultLocale;
  }

  /** The run ends with `status` at `at` (never before it started). */
  private end(status: CardStatus, at: number): ApplyResult {
    this.status.moveTo(status);
    this.endedAt = Math.max(at, this.startedAt);
    return { change: 'terminal' };
  }
}
