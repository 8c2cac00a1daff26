import { isTerminalStatus, type CardView } from '../card/view.js';
import type { BudgetedCall, CallFailureKind, ChannelPlugin, ChannelSettings } from '../plugin/contract.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { CallPipeline } from './calls/call-pipeline.js';
import { CardFlush } from './card-flush.js';
import { isFinalRung } from './card-delivery-phases.js';
import { CHANGE_OF_RANK, CHANGE_RANK, CardDeliveryRecord, flushOrder, type CardChange, type DeliverableCard } from './card-delivery-record.js';
import { ContinuationDispatch } from './continuations/continuation-dispatch.js';
import type { DeliveryObservers } from './delivery-observers.js';
import type { CardLeases } from './durable/card-leases.js';
import type { CardStore } from './durable/card-store.js';
import { CardStoreWriter } from './durable/card-store-writer.js';
import { LeaseWaits } from './durable/lease-waits.js';
import { ChannelStop } from './failures/channel-stop.js';
import { CredentialProbes } from './failures/credential-probes.js';
import { FailureHandling } from './failures/failure-handling.js';
import { FinalLadder } from './failures/final-ladder.js';
import { FinalSettlement, LEASE_EXPIRED_ERROR } from './failures/final-settlement.js';
import { OutageProbes } from './failures/outage-probes.js';
import { RefusedOperations } from './failures/refused-operations.js';
import type { RetrySettings } from './failures/retry-settings.js';
import type { BudgetStore } from './rate-limits/budget-store.js';
import { ChannelBudget } from './rate-limits/channel-budget.js';
import type { PreparedCall } from './schedule/flush-calls.js';
import { isFlushCall, type FlushOutcome } from './schedule/flush-outcome.js';
import { FlushPump } from './schedule/flush-pump.js';
import { FlushWakes } from './schedule/flush-wakes.js';
import { StreamDispatch } from './streams/stream-dispatch.js';

/** Counters of one channel, for dashboards and the CLI. Continuation parts count like any call. */
export interface ChannelStats {
  readonly sent: number;
  readonly updated: number;
  readonly failed: number;
  readonly rateLimited: number;
  /** Flushes that sent nothing (and took no budget slot) because the render equalled the last accepted one. */
  readonly unchanged: number;
}

/** What a channel dispatcher is built from. */
export interface ChannelDispatcherDeps {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  /** Wall time: platform limits, intervals and backoff are in wall time. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetrySettings;
  readonly budgets: BudgetStore;
  readonly cards: CardStore;
  /** The composition's leases on its stored cards. */
  readonly leases: CardLeases;
  /** Told about every platform call of the channel's cards. */
  readonly observers: DeliveryObservers;
}

/**
 * Turns the cards of one channel into platform calls. Each card has a {@link CardDeliveryRecord};
 * a {@link FlushPump} runs their flushes through the channel's budgets (terminal states first, then
 * cards' first messages, structural changes, text, elapsed-only refreshes: `FLUSH_ORDER`). A flush ({@link CardFlush}) renders the latest
 * view and skips what the platform already shows before it reserves a budget slot (under the
 * plugin's `budgetKeys`); its call goes through the channel's {@link CallPipeline}, a failure
 * through its {@link FailureHandling} (a final's through the ladder of `failures/final-ladder.ts`).
 * What a flush asks for next comes back as a {@link FlushOutcome}, applied here; so do the lease
 * checks and shutdown.
 */
export class ChannelDispatcher {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  private readonly pump: FlushPump<CardDeliveryRecord>;
  /** The channel's budgets: keys per call, slots, the arrival delay. */
  private readonly budget: ChannelBudget;
  /** Makes every platform call of the channel through its call chain. */
  private readonly calls: CallPipeline;
  private readonly counters = { sent: 0, updated: 0, failed: 0, rateLimited: 0, unchanged: 0 };
  /** Writes delivery state to the card store. */
  private readonly store: CardStoreWriter;
  /** Set by the `stop-channel` action (credentials refused, quota spent): only finals are tried, once each. */
  private readonly stop: ChannelStop;
  /** Decides each flush of a card and makes its call. */
  private readonly flush: CardFlush;
  /** Reports finals once their delivery settled; fences cards another process took over. */
  private readonly settlement: FinalSettlement;
  /** Cards of a streaming channel delivered as native streams. */
  private readonly streams: StreamDispatch;
  private readonly leaseWaits: LeaseWaits;
  /** Cards waiting while credentials that had worked are refused, and the probes that bring them back. */
  private readonly credentialProbes: CredentialProbes;
  /** Set by {@link close}: the error a final not settled by then is reported with. */
  private closing: string | undefined;
  /** Cards whose progressive call the call cap held back: flushed again once it may go. */
  private readonly wakes: FlushWakes<CardDeliveryRecord>;

  constructor(private readonly deps: ChannelDispatcherDeps) {
    const { plugin, settings, clock, logger, retry, observers } = deps;
    this.plugin = plugin;
    this.settings = settings;
    const counters = this.counters;
    const budget = new ChannelBudget(plugin, settings, deps.budgets, clock);
    this.budget = budget;
    const stop = new ChannelStop(plugin.id, logger, plugin.credentials);
    this.stop = stop;
    const refusedOperations = new RefusedOperations(plugin.id, logger);
    const leaseWaits = new LeaseWaits(deps.leases, plugin.id, logger);
    this.leaseWaits = leaseWaits;
    const ladder = new FinalLadder(retry);
    plugin.transport.onNotice?.((notice) => logger.warn(`${plugin.id}: ${notice.message}`, { channel: plugin.id, ...(notice.scope && { scope: notice.scope }) }));
    const store = new CardStoreWriter(
      deps.cards,
      deps.leases,
      plugin.id,
      logger,
      (record) => this.settlement.fence(record),
      (record) => this.leaseRegained(record),
      plugin.appIdentity,
    );
    this.store = store;
    this.pump = new FlushPump(
      budget,
      clock,
      (record, rank) => this.prepare(record, CHANGE_OF_RANK[rank]!),
      (record) => budget.laneOf(record.messagePhase === 'live' ? 'update' : 'send'),
      (record, rank) => flushOrder(CHANGE_OF_RANK[rank]!, record.messagePhase !== 'live'),
    );
    budget.cardsToSend = (lane) => this.pump.pendingIn(lane);
    this.wakes = new FlushWakes(clock, (record) => this.markDirty(record, 'elapsed'));
    const probes = new OutageProbes(plugin.id, clock, logger, retry, (record) => this.pump.request(record, CHANGE_RANK.structural));
    const calls = new CallPipeline({ plugin, settings, clock, budget, observers, stop, probes, counters });
    this.calls = calls;
    const credentialProbes = new CredentialProbes({
      channel: plugin.id,
      clock,
      logger,
      retry,
      refresh: async () => {
        if (plugin.transport.refreshAuth) await failures.refreshCredentials({ channel: plugin.id });
      },
      flush: (record, final) => this.pump.request(record, CHANGE_RANK[final ? 'terminal' : 'structural'], final),
      giveUp: (record) => {
        const failure = stop.stoppedWith;
        this.finish(record, false, failure ? stop.finalError(failure) : 'credentials refused', true);
      },
    });
    this.credentialProbes = credentialProbes;
    stop.onLift(() => credentialProbes.lifted());
    const failures = new FailureHandling({ plugin, settings, clock, logger, retry, budget, stop, refusedOperations, probes, credentialProbes, ladder, counters, through: calls.through });
    const continuations = new ContinuationDispatch({ plugin, clock, logger, budget, calls, failures, ladder, store });
    this.streams = new StreamDispatch({ plugin, clock, logger, budget, calls, failures, store, perCardIntervalMs: settings.perCardIntervalMs, wake: (record) => this.markDirty(record, 'elapsed') });
    // A stream that holds the whole answer leaves no continuation parts to report (Slack: a 30 000-character
    // answer streamed whole was reported 'continuation part 2 of 2 undeliverable').
    const streams = this.streams;
    const parts = { keys: (record: CardDeliveryRecord, view: CardView) => (streams.holdsWholeAnswer(record) ? [] : continuations.keys(record, view)) };
    this.settlement = new FinalSettlement({ plugin, clock, logger, budget, store, parts, calls, failures, ladder, leaseWaits, refusedOperations });
    this.flush = new CardFlush({ plugin, clock, budget, calls, failures, ladder, stop, refusedOperations, probes, credentialProbes, store, continuations, streams: this.streams, counters });
  }

  /**
   * True when the channel has room: the cards waiting for a slot can all go out within one per-card
   * interval. Cards then release streamed text at once; under pressure they buffer it.
   */
  get hasRoom(): boolean {
    return this.pump.backlog <= this.budget.roomyBacklog;
  }

  /**
   * Makes one call outside the card flushes (a completion ping, a count of messages, an upload)
   * through the channel's call chain: bounded by its timeout. Rejects with the call's error.
   */
  platformCall<T>(call: () => Promise<T>, kind: 'reply' | 'read' | 'upload'): Promise<T> {
    return this.calls.through(call, { kind });
  }

  /** Waits for a budget slot for one call made outside the card flushes (e.g. a completion ping). */
  acquire(call: BudgetedCall): Promise<void> {
    return this.budget.acquire(this.budget.keysOf(call));
  }

  /** A delivery record for a new card message. */
  register(card: DeliverableCard): CardDeliveryRecord {
    return new CardDeliveryRecord(card, this.settings.perCardIntervalMs, this.deps.retry.lateApplyWindowMs);
  }

  /** Records a change of a card and starts delivery when the budget allows. */
  markDirty(record: CardDeliveryRecord, change: CardChange): void {
    if (this.stop.probesBack && !this.credentialProbes.isProbe(record)) {
      // Credentials refused after they had worked: the card waits for the probe that brings them back.
      if (record.phase === 'delivered' || record.phase === 'undeliverable') return;
      if (change === 'terminal' && record.accepts(change) && this.deps.leases.holds(record.card.id)) this.store.put(record, record.card.view());
      this.credentialProbes.wait(record, isFinalRung(record.phase));
      return;
    }
    if (this.stop.stoppedBy && change !== 'terminal') record.pause();
    if (!record.accepts(change)) return;
    // The run's end is stored before its final is tried: a process taking the card over after
    // this one died delivers it (only a card stored already: its lease is then held).
    if (change === 'terminal' && this.deps.leases.holds(record.card.id)) this.store.put(record, record.card.view());
    this.pump.request(record, CHANGE_RANK[change], change === 'terminal');
  }

  /** The failure kind that stopped the channel (`auth`, `quota`), or undefined while it runs. */
  get stoppedBy(): CallFailureKind | undefined {
    return this.stop.stoppedBy;
  }

  /** Counters since the channel was created. */
  get stats(): ChannelStats {
    return { ...this.counters };
  }

  /** Cards with a flush pending or in flight, flushes in flight, a wake timer set, a ready card waiting for a slot. */
  get load(): { readonly pendingCards: number; readonly inFlight: number; readonly wakeTimerPending: boolean; readonly waitingForSlot: boolean } {
    return { pendingCards: this.pump.pendingCount, inFlight: this.pump.inFlight, wakeTimerPending: this.pump.wakeTimerPending, waitingForSlot: this.pump.waitingForSlot };
  }

  /** Resolves when no card of the channel has a flush pending or in flight. */
  idle(): Promise<void> {
    return this.pump.idle();
  }

  /** Stops the wake timer (calls in flight finish on their own). */
  dispose(): void {
    this.pump.dispose();
    this.wakes.dispose();
  }

  /**
   * Shutdown past its deadline: no call starts any more; each card whose final has not settled is
   * fenced with `error` (its final reported not delivered) once the call it has in flight, if any,
   * answered (that answer may still settle the final: the report is the true outcome). Resolves
   * when no call of the channel is in flight, so nothing reaches the platform after it.
   */
  async close(error: string): Promise<void> {
    this.closing = error;
    // Cards waiting (a retry's backoff, a slot) are prepared now, which fences them.
    for (const record of this.pump.pendingItems()) this.pump.request(record, 0, true);
    // Cards waiting for the card store are fenced now, saying why.
    for (const record of this.leaseWaits.waiting) this.closedFor(record);
    // Cards waiting for refused credentials too (a probe with a flush pending is fenced by it, like the others).
    const pending = new Set(this.pump.pendingItems());
    for (const record of this.credentialProbes.waiting) if (!pending.has(record)) this.closedFor(record);
    this.credentialProbes.dispose();
    await this.pump.idle();
    await this.settlement.close();
  }

  /** True (and the card fenced) when shutdown closed the channel: no call may start for `record`. */
  private closedFor(record: CardDeliveryRecord): boolean {
    if (this.closing === undefined) return false;
    const error = this.leaseWaits.has(record) ? `${LEASE_EXPIRED_ERROR}; ${this.closing}` : this.closing;
    if (record.phase !== 'delivered' && record.phase !== 'undeliverable') this.settlement.fence(record, error);
    return true;
  }

  /** The store renewed the lease of a waiting card: nobody claimed it, it is delivered again from its latest state. */
  private leaseRegained(record: CardDeliveryRecord): void {
    if (!this.leaseWaits.regained(record) || this.settlement.isFenced(record)) return;
    this.deps.logger.debug('card store answers again: card delivered again', { card: record.card.id, channel: this.plugin.id });
    const final = isTerminalStatus(record.card.view().status);
    this.pump.request(record, CHANGE_RANK[final ? 'terminal' : 'structural'], final);
  }

  /**
   * One flush of a card whose lease is valid (see {@link LeaseWaits}): the call to make, its call
   * made only if the lease still is when the slot came; undefined when there is none now (what the
   * flush asked for instead is applied at once).
   */
  private prepare(record: CardDeliveryRecord, change: CardChange): PreparedCall | undefined {
    if (this.closedFor(record) || this.settlement.isFenced(record) || !this.leaseWaits.valid(record)) return undefined;
    const decision = this.flush.decide(record);
    if (!isFlushCall(decision)) {
      this.apply(record, change, decision);
      return undefined;
    }
    return {
      keys: decision.keys,
      send: async () => {
        if (this.closedFor(record) || !this.leaseWaits.valid(record)) return;
        this.apply(record, change, await decision.send());
      },
    };
  }

  /** Does what a flush asked for next. */
  private apply(record: CardDeliveryRecord, change: CardChange, outcome: FlushOutcome): void {
    switch (outcome.next) {
      case 'wait':
        if (outcome.wakeAt !== undefined) this.wakes.at(record, outcome.wakeAt);
        return;
      case 'again':
        // Another flush of the card, not before `notBefore`.
        record.flushQueue.notBeforeTime(outcome.notBefore ?? this.deps.clock.now());
        this.markDirty(record, change);
        return;
      case 'settle':
        this.finish(record, outcome.ok, outcome.error, outcome.causeLogged);
        return;
    }
  }

  /** The final settled: the card's stream and credential probe are dropped, its final reported. */
  private finish(record: CardDeliveryRecord, ok: boolean, error?: string, causeLogged = false): void {
    this.streams.forget(record);
    this.wakes.forget(record);
    this.credentialProbes.forget(record);
    this.settlement.settle(record, ok, error, causeLogged);
  }
}
