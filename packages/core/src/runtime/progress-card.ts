import { randomUUID } from 'node:crypto';
import { CardState } from '../card/card-state.js';
import { checkPriceTable, type PriceTable } from '../card/cost.js';
import type { TextBufferLimits } from '../card/text-buffer.js';
import { resolveVerbosity, viewForVerbosity, type ChatType } from '../card/verbosity.js';
import type { CardStatus, CardView, Locale, Verbosity } from '../card/view.js';
import type { CardDeliveryRecord, FinalDelivery } from '../delivery/card-delivery-record.js';
import type { StoredCard } from '../delivery/card-store.js';
import type { ChannelDispatcher } from '../delivery/channel-dispatcher.js';
import type { MessageRef } from '../plugin/contract.js';
import type { AgentEvent, EventOf, PlanItem } from '../events/contract.js';
import { EventParseError, parseEvent } from '../events/parse.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { Tickable, TickerService } from './ticker.js';

/** Options of `ProgressCards.open`. */
export interface OpenCardOptions {
  /** Card title until `run.started` gives one. */
  readonly title?: string;
  /** Card language until `run.started` gives one (default zh-CN). */
  readonly locale?: Locale;
  /**
   * `run` (default): one card for the whole run, rounds update it. `turn`: a new card starts when
   * the round advances; the previous card gets its final state and is never edited again.
   */
  readonly cardPer?: 'run' | 'turn';
  /** Verbose output buffer thresholds (default 50 segments / 8000 characters). */
  readonly textBuffer?: TextBufferLimits;
  /**
   * An existing card message to continue instead of sending a new one, e.g. the `message` of a
   * card opened by an earlier process for the same run: the first flush updates it in place.
   */
  readonly message?: MessageRef;
  /**
   * How much this card shows: `quiet` (one card at the end), `compact` (status and current tool
   * call) or `detailed` (everything). Wins over the channel's `verbosity` setting.
   */
  readonly verbosity?: Verbosity;
  /** The kind of chat the card goes to; picks the channel's (or the default) verbosity for it. */
  readonly chatType?: ChatType;
  /**
   * After this long with no event (ms), a running card says "no new progress since 12:03" until the
   * next event (default 60 000; 0 turns it off).
   */
  readonly quietPeriodMs?: number;
  /**
   * Prices per model (US dollars per million tokens) to show the run's cost from its token usage
   * when the source does not report a cost itself. @throws Error (from `open`) naming a bad price.
   */
  readonly prices?: PriceTable;
}

/** Outcome of feeding one event. Bad input never throws out of a card. */
export type PushResult =
  | { readonly accepted: true }
  | { readonly accepted: false; readonly reason: 'invalid'; readonly error: EventParseError }
  | { readonly accepted: false; readonly reason: 'after-terminal' };

/** Event fields without `type` (and with optional `at`). */
type Fields<T extends AgentEvent['type']> = Omit<EventOf<T>, 'type'>;

/**
 * The channel-agnostic handle of one agent run in one chat. Feed it events; it keeps one card up
 * to date within the channel's limits and reports how the final state was delivered.
 */
export interface ProgressCard {
  /** Unique id (also the base of the platform idempotency key). */
  readonly id: string;
  /** The run the card shows: `OpenOptions.runId`, else {@link id}. `ProgressCards.resume(runId)` finds it after a restart. */
  readonly runId: string;
  readonly channelId: string;
  /** Validates and applies one event. Invalid input is logged and reported, never thrown. */
  push(event: unknown): PushResult;
  start(fields?: Fields<'run.started'>): PushResult;
  roundStarted(round: number): PushResult;
  roundEnded(round: number): PushResult;
  thinking(text: string): PushResult;
  answer(text: string): PushResult;
  toolStarted(callId: string, name: string, args?: string | Record<string, unknown>): PushResult;
  toolArgsDelta(callId: string, delta: string): PushResult;
  toolFinished(callId: string, summary?: string, isError?: boolean): PushResult;
  usage(fields: Fields<'usage'>): PushResult;
  /** The agent's plan as it stands now (`plan.updated`): the whole checklist each time. */
  plan(items: readonly PlanItem[]): PushResult;
  /** A file the agent wrote (`file.changed`), with line counts when known. */
  fileChanged(path: string, fields?: Omit<Fields<'file.changed'>, 'path'>): PushResult;
  waitingFor(prompt: string): PushResult;
  complete(answer?: string): PushResult;
  fail(error: string): PushResult;
  cancel(reason?: string): PushResult;
  /** The current card (of the current turn in card-per-turn mode). */
  view(): CardView;
  /** The platform message of the current card once it was sent (or given in `OpenCardOptions.message`). */
  readonly message: MessageRef | undefined;
  readonly status: CardStatus;
  /** Resolves once with how the run's final state reached the chat. Never rejects. */
  readonly finalDelivery: Promise<FinalDelivery>;
}

/** One card message: its state and its delivery record. Card-per-turn mode has several. */
interface Slot {
  readonly state: CardState;
  readonly delivery: CardDeliveryRecord;
  readonly id: string;
  debounce: NodeJS.Timeout | undefined;
  /** Fires when the quiet period passes with no event, to show the liveness note. */
  quiet: NodeJS.Timeout | undefined;
}

/** Wiring a card needs; built by the composition root. */
export interface CardRuntime {
  readonly channel: ChannelDispatcher;
  readonly ticker: TickerService;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** @internal The {@link ProgressCard} implementation. Create cards with `ProgressCards.open`. */
export class LiveProgressCard implements ProgressCard, Tickable {
  readonly id: string;
  readonly runId: string;
  readonly finalDelivery: Promise<FinalDelivery>;
  private resolveFinal!: (result: FinalDelivery) => void;
  private slot: Slot;
  private turn = 0;
  private warnedAfterTerminal = false;
  /** Events applied so far; 0 means the card was never started and nothing was posted. */
  private eventsApplied = 0;
  private readonly tickMs: number;
  private readonly verbosity: Verbosity;

  constructor(
    private readonly runtime: CardRuntime,
    readonly target: unknown,
    private readonly options: OpenCardOptions = {},
    runId?: string,
    private readonly resumed?: StoredCard,
  ) {
    this.id = randomUUID();
    this.runId = runId ?? this.id;
    this.finalDelivery = new Promise((resolve) => (this.resolveFinal = resolve));
    this.tickMs = runtime.channel.settings.tickMs;
    if (options.prices) checkPriceTable(options.prices);
    if (options.quietPeriodMs !== undefined && !(Number.isSafeInteger(options.quietPeriodMs) && options.quietPeriodMs >= 0)) {
      throw new Error(`quietPeriodMs = ${JSON.stringify(options.quietPeriodMs)}: must be a non-negative integer (ms)`);
    }
    this.verbosity = resolveVerbosity(options.verbosity, runtime.channel.settings.verbosity, options.chatType);
    this.slot = this.newSlot(runtime.clock.now(), options.title ?? resumed?.title, options.locale ?? resumed?.locale);
    if (resumed) this.seed(resumed);
  }

  /** A resumed card starts as stored: its start time, title, and running tools with their start times. */
  private seed(stored: StoredCard): void {
    const now = this.runtime.clock.now();
    const { state } = this.slot;
    state.apply({ type: 'run.started', at: stored.startedAt, title: stored.title, locale: stored.locale }, now);
    for (const tool of stored.tools) state.apply({ type: 'tool.started', callId: tool.callId, name: tool.name, args: tool.detail, at: tool.startedAt }, now);
    this.eventsApplied = 1;
    this.updateTicker(this.slot);
  }

  get channelId(): string {
    return this.runtime.channel.plugin.id;
  }

  get status(): CardStatus {
    return this.slot.state.currentStatus;
  }

  get message(): MessageRef | undefined {
    return this.slot.delivery.message;
  }

  view(): CardView {
    return viewForVerbosity(this.slot.state.view(this.runtime.clock.now()), this.verbosity);
  }

  push(input: unknown): PushResult {
    let event: AgentEvent;
    try {
      event = parseEvent(input);
    } catch (error) {
      const parseError = error instanceof EventParseError ? error : new EventParseError(String(error), [], input, input);
      this.runtime.logger.warn(`card ${this.id}: dropped ${parseError.message}`);
      return { accepted: false, reason: 'invalid', error: parseError };
    }
    return this.apply(event);
  }

  start(fields: Fields<'run.started'> = {}): PushResult { return this.push({ ...fields, type: 'run.started' }); }
  roundStarted(round: number): PushResult { return this.push({ type: 'round.started', round }); }
  roundEnded(round: number): PushResult { return this.push({ type: 'round.ended', round }); }
  thinking(text: string): PushResult { return this.push({ type: 'thinking.delta', text }); }
  answer(text: string): PushResult { return this.push({ type: 'answer.delta', text }); }
  toolStarted(callId: string, name: string, args?: string | Record<string, unknown>): PushResult {
    return this.push({ type: 'tool.started', callId, name, args });
  }
  toolArgsDelta(callId: string, delta: string): PushResult { return this.push({ type: 'tool.args_delta', callId, delta }); }
  toolFinished(callId: string, summary?: string, isError?: boolean): PushResult {
    return this.push({ type: 'tool.finished', callId, summary, isError });
  }
  usage(fields: Fields<'usage'>): PushResult { return this.push({ ...fields, type: 'usage' }); }
  plan(items: readonly PlanItem[]): PushResult { return this.push({ type: 'plan.updated', items }); }
  fileChanged(path: string, fields: Omit<Fields<'file.changed'>, 'path'> = {}): PushResult {
    return this.push({ ...fields, type: 'file.changed', path });
  }
  waitingFor(prompt: string): PushResult { return this.push({ type: 'interaction.requested', prompt }); }
  complete(answer?: string): PushResult { return this.push({ type: 'run.completed', answer }); }
  fail(error: string): PushResult { return this.push({ type: 'run.failed', error }); }
  cancel(reason?: string): PushResult { return this.push({ type: 'run.cancelled', reason }); }

  /**
   * Ends a card no event ever reached (used by `shutdown()`): nothing was posted, so nothing is
   * posted now. The card turns `cancelled` (later events are ignored) and {@link finalDelivery}
   * resolves with `{ ok: true, attempts: 0, skipped: 'never-started' }`. Returns false, doing
   * nothing, when the card has had an event.
   */
  endIfNeverStarted(reason: string): boolean {
    if (this.eventsApplied > 0) return false;
    this.slot.state.apply({ type: 'run.cancelled', reason }, this.runtime.clock.now());
    this.resolveFinal({
      ok: true,
      status: 'cancelled',
      freshMessage: false,
      attempts: 0,
      continuations: { delivered: 0, total: 0 },
      skipped: 'never-started',
    });
    return true;
  }

  /** Ticker callback: re-render elapsed times of running tools. */
  onTick(): void {
    const { state, delivery } = this.slot;
    if (!state.hasRunningTools || state.isTerminal || delivery.messagePhase === 'gone') {
      this.runtime.ticker.unwatch(this, this.tickMs);
      return;
    }
    this.runtime.channel.markDirty(delivery, 'elapsed');
  }

  private apply(event: AgentEvent): PushResult {
    const now = this.runtime.clock.now();
    if (this.options.cardPer === 'turn' && event.type === 'round.started') this.maybeStartTurn(event.round, now);
    const slot = this.slot;
    const result = slot.state.apply(event, now);
    if (result.ignored === 'after-terminal') {
      if (!this.warnedAfterTerminal) {
        this.warnedAfterTerminal = true;
        this.runtime.logger.warn(`card ${this.id}: ignoring ${event.type} and any later events after the run ended`);
      }
      return { accepted: false, reason: 'after-terminal' };
    }
    this.eventsApplied += 1;
    if (result.change === 'terminal') {
      this.updateTicker(slot);
      this.clearDebounce(slot);
      this.clearQuietTimer(slot);
      this.runtime.channel.markDirty(slot.delivery, 'terminal');
      return { accepted: true };
    }
    // Quiet: nothing is posted before the end.
    if (this.verbosity === 'quiet') return { accepted: true };
    this.updateTicker(slot);
    this.scheduleQuietTimer(slot);
    if (result.change !== 'none') this.runtime.channel.markDirty(slot.delivery, result.change);
    this.releaseOrBuffer(slot, now);
    return { accepted: true };
  }

  private updateTicker(slot: Slot): void {
    if (slot.state.hasRunningTools && !slot.state.isTerminal) this.runtime.ticker.watch(this, this.tickMs);
    else this.runtime.ticker.unwatch(this, this.tickMs);
  }

  /**
   * Streamed text follows the budget: while the channel has room it goes onto the card at once (the
   * card's flush queue spaces the calls by the per-card interval); under pressure, and always in
   * card-per-turn mode, it is buffered until the text buffer fills or `debounceMs` passed.
   */
  private releaseOrBuffer(slot: Slot, now: number): void {
    const since = slot.state.pendingTextSince;
    if (since === undefined) return;
    if (this.options.cardPer !== 'turn' && this.runtime.channel.hasRoom) {
      this.clearDebounce(slot);
      if (slot.state.releaseText()) this.runtime.channel.markDirty(slot.delivery, 'structural');
      return;
    }
    if (slot.debounce) return;
    const wait = Math.max(0, since + this.runtime.channel.settings.debounceMs - now);
    slot.debounce = setTimeout(() => {
      slot.debounce = undefined;
      if (slot.state.releaseText()) this.runtime.channel.markDirty(slot.delivery, 'structural');
    }, wait);
    slot.debounce.unref();
  }

  /**
   * (Re)arms the liveness timer: when the quiet period passes with no event, the card is redrawn and
   * its view (a pure function of the time since the latest event) carries the note.
   */
  private scheduleQuietTimer(slot: Slot): void {
    this.clearQuietTimer(slot);
    const quietMs = slot.state.quietPeriod;
    if (quietMs <= 0 || slot.state.isTerminal) return;
    slot.quiet = setTimeout(() => {
      slot.quiet = undefined;
      if (!slot.state.isTerminal) this.runtime.channel.markDirty(slot.delivery, 'structural');
    }, quietMs);
    slot.quiet.unref();
  }

  private clearQuietTimer(slot: Slot): void {
    if (slot.quiet) clearTimeout(slot.quiet);
    slot.quiet = undefined;
  }

  private clearDebounce(slot: Slot): void {
    if (slot.debounce) clearTimeout(slot.debounce);
    slot.debounce = undefined;
  }

  /** Card-per-turn: a later round closes the current card and opens the next. */
  private maybeStartTurn(round: number, now: number): void {
    const previous = this.slot;
    // After the run ended a late round is ignored like any other event, never a new card.
    if (previous.state.isTerminal || round <= previous.state.currentRound || !previous.state.hasContent) return;
    const view = previous.state.view(now);
    previous.state.apply({ type: 'run.completed' }, now);
    this.clearDebounce(previous);
    this.clearQuietTimer(previous);
    this.runtime.channel.markDirty(previous.delivery, 'terminal');
    this.slot = this.newSlot(now, view.title, view.locale);
    this.slot.state.apply({ type: 'run.started', at: view.startedAt, model: view.footer.model }, now);
  }

  private newSlot(now: number, title: string | undefined, locale: Locale | undefined): Slot {
    const { textBuffer, quietPeriodMs, prices } = this.options;
    const state = new CardState({ startedAt: now, title, locale, textBuffer, quietPeriodMs, prices });
    const first = this.turn === 0;
    const id = first && this.resumed ? this.resumed.cardId : `${this.id.slice(0, 28)}-t${this.turn}`;
    this.turn += 1;
    const slot: Slot = { state, id, debounce: undefined, quiet: undefined, delivery: undefined as unknown as CardDeliveryRecord };
    (slot as { delivery: CardDeliveryRecord }).delivery = this.runtime.channel.register({
      id,
      progressCardId: this.id,
      runId: this.runId,
      target: this.target,
      view: () => viewForVerbosity(state.view(this.runtime.clock.now()), this.verbosity),
      onMessageGone: () => {
        if (this.slot === slot) this.runtime.ticker.unwatch(this, this.tickMs);
      },
      onFinal: (result) => {
        if (this.slot === slot) this.resolveFinal(result);
      },
    });
    if (first && this.resumed?.message) slot.delivery.resume(this.resumed.message, this.resumed.idempotencyKey);
    else if (first && this.options.message) slot.delivery.resume(this.options.message);
    return slot;
  }
}
