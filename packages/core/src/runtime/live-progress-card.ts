import { randomUUID } from 'node:crypto';
import { channelDefaultLocale, type LocaleSetting } from '../card/locale.js';
import { createRedactor } from '../card/redaction.js';
import { CardState } from '../card/card-state.js';
import { resolveVerbosity, viewForVerbosity } from '../card/verbosity.js';
import type { CardStatus, CardView, Locale, Verbosity } from '../card/view.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { StoredCard } from '../delivery/durable/card-store.js';
import type { ChannelDispatcher } from '../delivery/channel-dispatcher.js';
import type { MessageRef } from '../plugin/contract.js';
import { AttachmentUploads } from './attachment-uploads.js';
import type { AgentEvent } from '../events/contract.js';
import type { InteractionRouter } from '../interaction/router.js';
import type { Answer, ApprovalRequest, AskRequest, Decision, StopHandler } from '../interaction/types.js';
import { CardInteractions } from './card-interactions.js';
import { CardSlot } from './card-slot.js';
import { EventParseError, parseEvent } from '../events/parse.js';
import { cardClock, type Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { safeString } from '../shared/safe-string.js';
import { abandonedReason, StallWatch, type StallSettings } from './stall-watch.js';
import type { Tickable, Ticker } from './ticker.js';
import { EventMethods } from './event-methods.js';
import { checkOpenCardOptions, type OpenCardOptions, type ProgressCard, type PushResult } from './progress-card.js';

/** Wiring a card needs; built by the composition root. */
export interface CardRuntime {
  readonly channel: ChannelDispatcher;
  readonly ticker: Ticker;
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
  private slot: CardSlot;
  private turn = 0;
  private warnedAfterTerminal = false;
  /** Events applied so far; 0 means the card was never started and nothing was posted. */
  private eventsApplied = 0;
  /** Epoch ms of the latest event applied. */
  private lastEventAt = 0;
  private readonly tickMs: number;
  /** This card's time: monotonic elapsed times (see {@link cardClock}). */
  private readonly clock: Clock;
  private readonly interactive: CardInteractions;
  /** True while `onStop` has a handler: every turn's card shows the Stop button. */
  private stoppable = false;
  /** True once the channel's card callbacks could not start (new turns keep replies to type). */
  private textReplies = false;
  private readonly stallWatch: StallWatch;
  private readonly verbosity: Verbosity;
  /** Uploads of the files the run attached; the final waits for them (each bounded by the call timeout). */
  private readonly uploads: AttachmentUploads;
  private readonly uploadsStarted = new Set<string>();

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
    this.clock = cardClock(runtime.clock);
    checkOpenCardOptions(options);
    this.verbosity = resolveVerbosity(options.verbosity, runtime.channel.settings.verbosity, options.chatType);
    this.slot = this.newSlot(this.clock.now(), options.title ?? resumed?.title, resumed?.locale ?? options.locale);
    this.interactive = new CardInteractions({
      plugin: runtime.channel.plugin,
      router: runtime.interactions,
      logger: runtime.logger,
      requester: options.requester,
      push: (event) => void this.push(event),
      currentCardId: () => this.slot.id,
      locale: () => this.slot.state.view(this.clock.now()).locale,
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
      now: () => this.clock.now(),
    });
    this.uploads = new AttachmentUploads({
      channel: runtime.channel,
      logger: runtime.logger,
      cardId: this.id,
      target,
      message: () => this.slot.delivery.message,
      changed: () => {
        if (!this.slot.state.isTerminal) this.runtime.channel.markDirty(this.slot.delivery, 'structural');
      },
    });
    this.stallWatch = new StallWatch(runtime.stall, () => this.stalled(), () => this.abandoned());
    void this.finalDelivery.then(() => this.stallWatch.stop());
    if (resumed) this.seed(resumed);
  }

  /** A resumed card starts as stored: its start time, title, running tools with their start times, and the tools that ended by the run's end. */
  private seed(stored: StoredCard): void {
    const now = this.clock.now();
    const { state } = this.slot;
    state.apply({ type: 'run.started', at: stored.startedAt, title: stored.title, locale: stored.locale }, now);
    for (const tool of stored.final?.tools ?? []) {
      state.apply({ type: 'tool.started', callId: tool.callId, name: tool.name, args: tool.detail, at: tool.startedAt }, now);
      state.apply({ type: 'tool.finished', callId: tool.callId, at: tool.finishedAt, ...(tool.summary !== undefined && { summary: tool.summary }), isError: tool.failed }, now);
    }
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
    return viewForVerbosity(this.slot.state.view(this.clock.now()), this.verbosity);
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
    this.slot.state.apply({ type: 'run.cancelled', reason }, this.clock.now());
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
    const now = this.clock.now();
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
    if (event.type === 'attachment') this.uploads.start(slot.state, this.uploadsStarted);
    if (result.change === 'terminal') {
      this.interactive.runEnded();
      this.updateTicker(slot);
      slot.clearTimers();
      // The final names the attached files as uploaded or not: it goes out once their uploads settled.
      if (this.uploads.busy) void this.uploads.settled().then(() => this.runtime.channel.markDirty(slot.delivery, 'terminal'));
      else this.runtime.channel.markDirty(slot.delivery, 'terminal');
      return { accepted: true };
    }
    // Quiet: nothing is posted before the end.
    if (this.verbosity === 'quiet') return { accepted: true };
    this.updateTicker(slot);
    slot.scheduleQuietTimer();
    // Text the buffer released ranks below structure (see `CardChange`).
    if (result.change !== 'none') this.runtime.channel.markDirty(slot.delivery, result.released && result.change === 'structural' ? 'text' : result.change);
    // Card-per-turn mode always buffers streamed text (see `CardSlot.releaseOrBuffer`).
    slot.releaseOrBuffer(now, this.options.cardPer === 'turn');
    return { accepted: true };
  }

  private updateTicker(slot: CardSlot): void {
    if (slot.state.hasRunningTools && !slot.state.isTerminal && !slot.state.isStalled) this.runtime.ticker.watch(this, this.tickMs);
    else this.runtime.ticker.unwatch(this, this.tickMs);
  }

  /** Card-per-turn: a later round closes the current card and opens the next. */
  private maybeStartTurn(round: number, now: number): void {
    const previous = this.slot;
    // After the run ended a late round is ignored like any other event, never a new card.
    if (previous.state.isTerminal || round <= previous.state.currentRound || !previous.state.hasContent) return;
    const view = previous.state.view(now);
    previous.state.apply({ type: 'run.completed' }, now);
    previous.clearTimers();
    this.runtime.channel.markDirty(previous.delivery, 'terminal');
    this.slot = this.newSlot(now, view.title, this.options.locale === 'auto' ? 'auto' : view.locale);
    this.slot.state.apply({ type: 'run.started', at: view.startedAt, model: view.footer.model }, now);
  }

  /** The channel's default language: its plugin's `defaultLocale`, else the table's (`CHANNEL_DEFAULT_LOCALES`). */
  get channelLocale(): Locale {
    const plugin = this.runtime.channel.plugin;
    return plugin.defaultLocale ?? channelDefaultLocale(plugin.id);
  }

  private newSlot(now: number, title: string | undefined, locale: LocaleSetting | undefined): CardSlot {
    const { textBuffer, quietPeriodMs, prices } = this.options;
    const redact = createRedactor(this.options.redaction);
    const first = this.turn === 0;
    const id = first && this.resumed ? this.resumed.cardId : `${this.id.slice(0, 28)}-t${this.turn}`;
    this.turn += 1;
    const lockedLocale = this.runtime.channel.plugin.switches?.locale;
    const state = new CardState({ startedAt: now, title, locale, lockedLocale, defaultLocale: this.channelLocale, textBuffer, quietPeriodMs, prices, redact, cardId: id });
    if (this.stoppable) state.setStoppable(true);
    if (this.textReplies) state.useTextReplies();
    // The delivery's callbacks run only after the slot exists; they act only while it is the current one.
    const slot: CardSlot = new CardSlot(id, state, this.runtime.channel, {
      id,
      progressCardId: this.id,
      runId: this.runId,
      target: this.target,
      ...(this.options.requester && { requester: this.options.requester }),
      ...(this.options.replyTo && { replyToMessage: { messageId: this.options.replyTo.messageId, inThread: this.options.replyTo.inThread ?? false } }),
      view: () => viewForVerbosity(state.view(this.clock.now()), this.verbosity),
      onMessageGone: () => {
        if (this.slot === slot) this.runtime.ticker.unwatch(this, this.tickMs);
      },
      onPlatformStop: () => {
        if (this.slot === slot) this.interactive.platformStopped();
      },
      onFinal: (result) => {
        if (this.slot !== slot) return;
        // A settled final needs no more ticks (a fenced card's ticks would show nothing).
        this.runtime.ticker.unwatch(this, this.tickMs);
        this.resolveFinal(result);
      },
    });
    if (first && this.resumed?.message) slot.delivery.resume(this.resumed.message, this.resumed.idempotencyKey);
    else if (first && this.options.message) slot.delivery.resume(this.options.message);
    return slot;
  }
}
