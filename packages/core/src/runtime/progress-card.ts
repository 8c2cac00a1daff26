import { checkTimerMs } from '../shared/timer-duration.js';
import { randomUUID } from 'node:crypto';
import { CardState } from '../card/card-state.js';
import { checkPriceTable, type PriceTable } from '../card/cost.js';
import type { TextBufferLimits } from '../card/text-buffer.js';
import { resolveVerbosity, viewForVerbosity, type ChatType } from '../card/verbosity.js';
import type { CardStatus, CardView, Locale, Verbosity } from '../card/view.js';
import type { CardDeliveryRecord, FinalDelivery } from '../delivery/card-delivery-record.js';
import type { StoredCard } from '../delivery/card-store.js';
import type { ChannelDispatcher } from '../delivery/channel-dispatcher.js';
import type { MessageRef, ReplyToMessage } from '../plugin/contract.js';
import type { AgentEvent, InteractionUser, PlanItem } from '../events/contract.js';
import type { InteractionRouter } from '../interaction/router.js';
import type { Answer, ApprovalRequest, AskRequest, Decision, StopHandler } from '../interaction/types.js';
import { CardInteractions } from './card-interactions.js';
import { checkOpenCardOptions } from './open-options.js';
import { EventParseError, parseEvent } from '../events/parse.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { abandonedReason, StallWatch, type StallSettings } from './stall-watch.js';
import type { Tickable, TickerService } from './ticker.js';
import { EventMethods, type Fields } from './event-methods.js';

/**
 * Options of `ProgressCards.open`. `open` throws an Error naming the field and value for any field
 * of the wrong shape (e.g. `open verbosity = "loud": …`).
 */
export interface OpenCardOptions {
  /**
   * The message that triggered the run: the card is sent as a reply to it, inside its thread or
   * topic with `inThread: true` (Feishu `reply_in_thread`, Slack `thread_ts`; DingTalk group chats
   * have no thread reply, the card is a normal message there). Updates edit that reply in place.
   * A recalled or deleted triggering message: Feishu and Slack (`thread_not_found`) post the card into the chat instead.
   * @throws Error (from `open`) naming `replyTo.messageId` when it is not a non-empty string.
   */
  readonly replyTo?: ReplyToMessage;
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
   * The user the run works for (platform user id, e.g. a Feishu open_id): with it, only they (and
   * a question's `allowedUsers`) may answer the card's questions or press Stop.
   */
  readonly requester?: InteractionUser;
  /**
   * How much this card shows: `quiet` (one card at the end), `compact` (status and current tool
   * call) or `detailed` (everything). Wins over the channel's `verbosity` setting.
   */
  readonly verbosity?: Verbosity;
  /** The kind of chat the card goes to; picks the channel's (or the default) verbosity for it. */
  readonly chatType?: ChatType;
  /**
   * After this long with no event (ms), a running card says "no new progress since 12:03" until the
   * next event (default 60 000; 0 turns it off; at most `MAX_TIMER_MS`, 2 147 483 647).
   * @throws Error (from `open`) naming `quietPeriodMs` when it is not an integer from 0 to that limit.
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
  /**
   * Asks the user to approve something from the card: one button per option (default Approve /
   * Deny), the card waits (orange) until a click or the timeout (default 10 min, then the deny
   * option, shown on the card). The first valid click wins; see `InteractionRouter` for the rules.
   * A channel without callbacks shows the text reply to type instead of buttons.
   * @returns the decision (never rejects for a click; rejects at once naming the field for a bad request).
   */
  requestApproval(request: ApprovalRequest): Promise<Decision>;
  /** Asks the user a question from the card: buttons for `choices`, a text box for `freeText`. Like {@link requestApproval}. */
  ask(request: AskRequest): Promise<Answer>;
  /**
   * Puts a Stop button on the running card. A click (by the `requester` when set) calls `handler`
   * with the user and ends the card as cancelled by them. A later `onStop` replaces the handler.
   * @returns a function that removes the button.
   */
  onStop(handler: StopHandler): () => void;
  /** The current card (of the current turn in card-per-turn mode). */
  view(): CardView;
  /** The platform message of the current card once it was sent (or given in `OpenCardOptions.message`). */
  readonly message: MessageRef | undefined;
  readonly status: CardStatus;
  /** Resolves once with how the run's final state reached the chat. Never rejects. */
  readonly finalDelivery: Promise<FinalDelivery>;
}

/** `String(value)`, or a placeholder when even that throws. */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '(unprintable error)';
  }
}

/** @throws Error naming the field when `replyTo` is not `{ messageId: non-empty string, inThread?: boolean }`. */
function checkReplyTo(replyTo: ReplyToMessage): void {
  if (typeof replyTo !== 'object' || replyTo === null) throw new Error(`replyTo = ${safeString(replyTo)}: must be { messageId, inThread? }`);
  if (typeof replyTo.messageId !== 'string' || replyTo.messageId.trim() === '') {
    throw new Error(`replyTo.messageId = ${JSON.stringify(replyTo.messageId) ?? 'undefined'}: must be a non-empty string (the triggering message's id)`);
  }
  if (replyTo.inThread !== undefined && typeof replyTo.inThread !== 'boolean') {
    throw new Error(`replyTo.inThread = ${JSON.stringify(replyTo.inThread)}: must be true or false`);
  }
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
  /** The composition's click router. */
  readonly interactions: InteractionRouter;
  /** When a run nobody feeds counts as stalled and when it is given up. */
  readonly stall: StallSettings;
}

/** @internal The {@link ProgressCard} implementation. Create cards with `ProgressCards.open`. */
export class LiveProgressCard extends EventMethods implements ProgressCard, Tickable {
  readonly id = randomUUID();
  readonly runId: string;
  readonly finalDelivery: Promise<FinalDelivery>;
  private resolveFinal!: (result: FinalDelivery) => void;
  private slot: Slot;
  private turn = 0;
  private warnedAfterTerminal = false;
  /** Events applied so far; 0 means the card was never started and nothing was posted. */
  private eventsApplied = 0;
  /** Epoch ms of the latest event applied. */
  private lastEventAt = 0;
  private readonly tickMs: number;
  private readonly interactive: CardInteractions;
  /** True while `onStop` has a handler: every turn's card shows the Stop button. */
  private stoppable = false;
  /** True once the channel's card callbacks could not start (new turns keep replies to type). */
  private textReplies = false;
  private readonly stallWatch: StallWatch;
  private readonly verbosity: Verbosity;

  constructor(
    private readonly runtime: CardRuntime,
    readonly target: unknown,
    private readonly options: OpenCardOptions = {},
    runId?: string,
    private readonly resumed?: StoredCard,
  ) {
    super();
    this.runId = runId ?? this.id;
    this.finalDelivery = new Promise((resolve) => (this.resolveFinal = resolve));
    this.tickMs = runtime.channel.settings.tickMs;
    checkOpenCardOptions(options);
    if (options.prices) checkPriceTable(options.prices);
    if (options.replyTo !== undefined) checkReplyTo(options.replyTo);
    if (options.quietPeriodMs !== undefined) checkTimerMs('quietPeriodMs', options.quietPeriodMs, 0);
    this.verbosity = resolveVerbosity(options.verbosity, runtime.channel.settings.verbosity, options.chatType);
    this.slot = this.newSlot(runtime.clock.now(), options.title ?? resumed?.title, options.locale ?? resumed?.locale);
    this.interactive = new CardInteractions({
      plugin: runtime.channel.plugin,
      router: runtime.interactions,
      logger: runtime.logger,
      requester: options.requester,
      push: (event) => void this.push(event),
      currentCardId: () => this.slot.id,
      locale: () => this.slot.state.view(runtime.clock.now()).locale,
      view: () => this.view(),
      isTerminal: () => this.slot.state.isTerminal,
      setStoppable: (on) => {
        this.stoppable = on;
        if (this.slot.state.setStoppable(on)) this.runtime.channel.markDirty(this.slot.delivery, 'structural');
      },
      useTextReplies: () => {
        this.textReplies = true;
        if (this.slot.state.useTextReplies()) this.runtime.channel.markDirty(this.slot.delivery, 'structural');
      },
      cancel: (reason) => void this.cancel(reason),
      now: () => runtime.clock.now(),
    });
    this.stallWatch = new StallWatch(runtime.stall, () => this.stalled(), () => this.abandoned());
    void this.finalDelivery.then(() => this.stallWatch.stop());
    if (resumed) this.seed(resumed);
  }

  /** A resumed card starts as stored: its start time, title, and running tools with their start times. */
  private seed(stored: StoredCard): void {
    const now = this.runtime.clock.now();
    const { state } = this.slot;
    state.apply({ type: 'run.started', at: stored.startedAt, title: stored.title, locale: stored.locale }, now);
    for (const tool of stored.tools) state.apply({ type: 'tool.started', callId: tool.callId, name: tool.name, args: tool.detail, at: tool.startedAt }, now);
    this.eventsApplied = 1;
    this.lastEventAt = now;
    this.updateTicker(this.slot);
  }

  /** No event for `stallMs`: the card says since when there was no progress, and stops ticking. */
  private stalled(): void {
    const { state, delivery } = this.slot;
    const change = state.markStalled(this.lastEventAt);
    if (change === 'none') return;
    this.runtime.logger.warn(`card ${this.id}: no event for ${this.runtime.stall.stallMs} ms; showing it as stalled`);
    this.runtime.ticker.unwatch(this, this.tickMs);
    this.runtime.channel.markDirty(delivery, change);
  }

  /** No event for `abandonMs`: the run is given up and the card ends as failed, saying why. */
  private abandoned(): void {
    if (this.slot.state.isTerminal) return;
    this.push({ type: 'run.failed', error: abandonedReason(this.runtime.stall.abandonMs, this.view().locale) });
  }

  requestApproval(request: ApprovalRequest): Promise<Decision> {
    return this.interactive.requestApproval(request);
  }

  ask(request: AskRequest): Promise<Answer> {
    return this.interactive.ask(request);
  }

  onStop(handler: StopHandler): () => void {
    return this.interactive.onStop(handler);
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
      return this.dropped(input, error);
    }
    try {
      return this.apply(event);
    } catch (error) {
      // A bug or a hostile value (a throwing getter read late): this event is dropped, the card carries on.
      return this.dropped(input, error);
    }
  }

  /** Logs and reports one event that could not be applied. Never throws. */
  private dropped(input: unknown, error: unknown): PushResult {
    let parseError: EventParseError;
    try {
      parseError = error instanceof EventParseError ? error : new EventParseError(`invalid agent event: ${safeString(error)}`, [], undefined, input);
      this.runtime.logger.warn(`card ${this.id}: dropped ${parseError.message}`);
    } catch {
      parseError = new EventParseError('invalid agent event', [], undefined, input);
    }
    return { accepted: false, reason: 'invalid', error: parseError };
  }


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
    if (!state.hasRunningTools || state.isTerminal || state.isStalled || delivery.messagePhase === 'gone') {
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
    this.lastEventAt = now;
    if (slot.state.isTerminal) this.stallWatch.stop();
    else this.stallWatch.touch();
    if (result.change === 'terminal') {
      this.interactive.runEnded();
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
    if (slot.state.hasRunningTools && !slot.state.isTerminal && !slot.state.isStalled) this.runtime.ticker.watch(this, this.tickMs);
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
    const first = this.turn === 0;
    const id = first && this.resumed ? this.resumed.cardId : `${this.id.slice(0, 28)}-t${this.turn}`;
    this.turn += 1;
    const state = new CardState({ startedAt: now, title, locale, textBuffer, quietPeriodMs, prices, cardId: id });
    if (this.stoppable) state.setStoppable(true);
    if (this.textReplies) state.useTextReplies();
    const slot: Slot = { state, id, debounce: undefined, quiet: undefined, delivery: undefined as unknown as CardDeliveryRecord };
    (slot as { delivery: CardDeliveryRecord }).delivery = this.runtime.channel.register({
      id,
      progressCardId: this.id,
      runId: this.runId,
      target: this.target,
      ...(this.options.replyTo && { replyToMessage: { messageId: this.options.replyTo.messageId, inThread: this.options.replyTo.inThread ?? false } }),
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
