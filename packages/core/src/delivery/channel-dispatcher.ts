import { isTerminalStatus, type CardView } from '../card/view.js';
import type { BudgetedCall, CallFailure, ChannelPlugin, ChannelSettings } from '../plugin/contract.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { BudgetStore } from './rate-limits/budget-store.js';
import { extraCallBudget, extraCallsOf, withQuota } from './calls/card-calls.js';
import { CallFailures } from './failures/call-failures.js';
import { ChannelBudget } from './rate-limits/channel-budget.js';
import { CHANGE_OF_RANK, CHANGE_RANK, CardDeliveryRecord, type CardChange, type DeliverableCard } from './card-delivery-record.js';
import type { CardLeases } from './durable/card-leases.js';
import type { CardStore } from './durable/card-store.js';
import { CardStoreWriter } from './durable/card-store-writer.js';
import { LeaseWaits } from './durable/lease-waits.js';
import { DEFAULT_CALL_TIMEOUT_MS, withCallTimeout } from './calls/call-timeout.js';
import { ChannelStop } from './failures/channel-stop.js';
import { ContinuationDispatch } from './continuations/continuation-dispatch.js';
import type { DeliveryCall, DeliveryObservers } from './delivery-observers.js';
import { backoffMs, FRESH_MESSAGE_AFTER, failureAction, finalLadder, isFinalRung, type FinalLadderRung } from './failures/delivery-policy.js';
import { FinalSettlement, LEASE_EXPIRED_ERROR } from './failures/final-settlement.js';
import type { PreparedCall } from './schedule/flush-calls.js';
import { FlushPump } from './schedule/flush-pump.js';
import { OutageProbes } from './failures/outage-probes.js';
import { CredentialProbes } from './failures/credential-probes.js';
import { StreamDispatch } from './streams/stream-dispatch.js';
import { RefusedOperations } from './failures/refused-operations.js';
import type { RetrySettings } from './failures/retry-settings.js';

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
 * structural changes, then elapsed-only refreshes). A flush renders the latest view and skips what
 * the platform already shows before it reserves a budget slot (under the plugin's
 * `budgetKeys`), then sends or updates the main message, then its continuation parts; a failed call
 * is handled by the delivery policy's failure table and, for the final, its ladder.
 */
export class ChannelDispatcher {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  private readonly pump: FlushPump<CardDeliveryRecord>;
  private readonly ladder: readonly FinalLadderRung[];
  /** The channel's budgets: keys per call, slots, the arrival delay. */
  private readonly budget: ChannelBudget;
  private readonly counters = { sent: 0, updated: 0, failed: 0, rateLimited: 0, unchanged: 0 };
  /** Writes delivery state to the card store. */
  private readonly store: CardStoreWriter;
  /** Set by the `stop-channel` action (credentials refused, quota spent): only finals are tried, once each. */
  private readonly stop: ChannelStop;
  /** Operations refused for a missing permission scope (the `stop-operation` action): not tried again. */
  private readonly refusedOperations: RefusedOperations;
  /** Sends and updates the continuation parts once the main message holds an accepted state. */
  private readonly parts: ContinuationDispatch;
  /** Cards whose progressive updates failed too often probe the platform with backoff. */
  private readonly probes: OutageProbes;
  /** Reports finals once their delivery settled; fences cards another process took over. */
  private readonly settlement: FinalSettlement;
  /** Classifies failed calls, logs them, and decides waits and credential refreshes. */
  private readonly failures: CallFailures;
  /** Cards of a streaming channel delivered as native streams. */
  private readonly streams: StreamDispatch;
  private readonly leaseWaits: LeaseWaits;
  /** Cards waiting while credentials that had worked are refused, and the probes that bring them back. */
  private readonly credentialProbes: CredentialProbes;
  /** Set by {@link close}: the error a final not settled by then is reported with. */
  private closing: string | undefined;

  constructor(private readonly deps: ChannelDispatcherDeps) {
    this.plugin = deps.plugin;
    this.settings = deps.settings;
    this.ladder = finalLadder(deps.retry);
    this.budget = new ChannelBudget(deps.plugin, deps.settings, deps.budgets, deps.clock);
    this.stop = new ChannelStop(deps.plugin.id, deps.logger, deps.plugin.credentials);
    this.refusedOperations = new RefusedOperations(deps.plugin.id, deps.logger);
    this.leaseWaits = new LeaseWaits(deps.leases, deps.plugin.id, deps.logger);
    deps.plugin.transport.onNotice?.((notice) => deps.logger.warn(`${deps.plugin.id}: ${notice.message}`, { channel: deps.plugin.id, ...(notice.scope && { scope: notice.scope }) }));
    this.store = new CardStoreWriter(
      deps.cards,
      deps.leases,
      deps.plugin.id,
      deps.logger,
      (record) => this.settlement.fence(record),
      (record) => this.leaseRegained(record),
    );
    this.failures = new CallFailures({ plugin: deps.plugin, settings: deps.settings, clock: deps.clock, logger: deps.logger, retry: deps.retry, budget: this.budget, stop: this.stop, counters: this.counters });
    this.parts = new ContinuationDispatch({
      plugin: deps.plugin,
      clock: deps.clock,
      logger: deps.logger,
      retry: deps.retry,
      budget: this.budget,
      store: this.store,
      stop: this.stop,
      counters: this.counters,
      classify: (error) => this.failures.classify(error),
      platformCall: (call) => this.platformCall(call),
      observe: (...args) => this.observe(...args),
      applies: (...args) => this.failures.applies(...args),
      logFailure: (...args) => this.failures.logFailure(...args),
      waitAfter: (...args) => this.failures.waitAfter(...args),
      refreshCredentials: (fields) => this.failures.refreshCredentials(fields),
      requeue: (...args) => this.requeue(...args),
      finish: (record, ok) => this.finish(record, ok),
      finishAfterLateCalls: (record, change) => this.finishAfterLateCalls(record, change),
    });
    this.settlement = new FinalSettlement({
      plugin: deps.plugin,
      clock: deps.clock,
      logger: deps.logger,
      retry: deps.retry,
      budget: this.budget,
      store: this.store,
      parts: this.parts,
      leaseValid: (record) => this.leaseValid(record),
      platformCall: (call) => this.platformCall(call),
      ...(deps.plugin.transport.refreshAuth && { refreshCredentials: () => this.failures.refreshCredentials({ channel: deps.plugin.id }) }),
      observe: (...args) => this.observe(...args),
      updatesRefused: () => this.refusedOperations.refusal('update') !== undefined,
    });
    this.pump = new FlushPump(
      this.budget,
      deps.clock,
      (record, rank) => this.prepareWithLease(record, CHANGE_OF_RANK[rank]!),
      (record) => this.budget.laneOf(record.messagePhase === 'live' ? 'update' : 'send'),
    );
    this.streams = new StreamDispatch({
      plugin: deps.plugin,
      clock: deps.clock,
      logger: deps.logger,
      budget: this.budget,
      classify: (error) => this.failures.classify(error),
      platformCall: (call) => this.platformCall(call),
      observe: (...args) => this.observe(...args),
      succeeded: (record, call, view) => {
        this.counters[call === 'update' ? 'updated' : 'sent'] += 1;
        this.stop.lift();
        this.probes.succeeded(record);
        this.store.put(record, view);
      },
      handleFailure: (...args) => this.handleFailure(...args),
      requeue: (...args) => this.requeue(...args),
      markDirty: (record, change) => this.markDirty(record, change),
      finish: (record, ok, error) => this.finish(record, ok, error),
    });
    this.probes = new OutageProbes(deps.plugin.id, deps.clock, deps.logger, deps.retry, (record) => this.pump.request(record, CHANGE_RANK.structural));
    this.credentialProbes = new CredentialProbes({
      channel: deps.plugin.id,
      clock: deps.clock,
      logger: deps.logger,
      retry: deps.retry,
      refresh: async () => {
        if (deps.plugin.transport.refreshAuth) await this.failures.refreshCredentials({ channel: deps.plugin.id });
      },
      flush: (record, final) => this.pump.request(record, CHANGE_RANK[final ? 'terminal' : 'structural'], final),
      giveUp: (record) => {
        const failure = this.stop.stoppedWith;
        this.finish(record, false, failure ? this.stop.finalError(failure) : 'credentials refused', true);
      },
    });
    this.stop.onLift(() => this.credentialProbes.lifted());
  }

  /**
   * True when the channel has room: the cards waiting for a slot can all go out within one per-card
   * interval. Cards then release streamed text at once; under pressure they buffer it.
   */
  get hasRoom(): boolean {
    return this.pump.backlog <= this.budget.roomyBacklog;
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

  /** A card whose lease may have expired waits without platform calls until the store answers (see {@link LeaseWaits}). */
  private leaseValid(record: CardDeliveryRecord): boolean {
    return this.leaseWaits.valid(record);
  }

  /** The store renewed the lease of a waiting card: nobody claimed it, it is delivered again from its latest state. */
  private leaseRegained(record: CardDeliveryRecord): void {
    if (!this.leaseWaits.regained(record) || this.settlement.isFenced(record)) return;
    this.deps.logger.debug('card store answers again: card delivered again', { card: record.card.id, channel: this.plugin.id });
    const final = isTerminalStatus(record.card.view().status);
    this.pump.request(record, CHANGE_RANK[final ? 'terminal' : 'structural'], final);
  }

  /** {@link prepare} for a card whose lease is valid, its call made only if the lease still is when the slot came. */
  private prepareWithLease(record: CardDeliveryRecord, change: CardChange): PreparedCall | undefined {
    if (this.closedFor(record) || this.settlement.isFenced(record) || !this.leaseValid(record)) return undefined;
    const prepared = this.prepare(record, change);
    if (!prepared) return undefined;
    return { ...prepared, send: () => (!this.closedFor(record) && this.leaseValid(record) ? prepared.send() : Promise.resolve()) };
  }

  /**
   * Decides one flush of one card: renders the latest view and returns the call to make, or
   * undefined when the platform already shows it (no budget slot is taken). Never throws, and has
   * no effect when it returns a call (the pump may put the card back to wait for a slot).
   */
  private prepare(record: CardDeliveryRecord, change: CardChange): PreparedCall | undefined {
    if (this.settlement.isFenced(record)) return undefined;
    const shown = record.outage.decorate(record.card.view());
    const final = isTerminalStatus(shown.status);
    const view = withQuota(shown, record, final, this.plugin.switches?.monthlyQuota, this.plugin.transport.callsPerOperation?.final);
    if (this.stop.probesBack && !this.credentialProbes.isProbe(record)) {
      this.credentialProbes.wait(record, final);
      return undefined;
    }
    if (this.stop.stoppedBy && !final && !this.credentialProbes.isProbe(record)) {
      record.pause();
      return undefined;
    }
    const streamed = this.streams.prepare(record, change, final, view);
    if (streamed !== undefined) return streamed ?? undefined;
    let payload: unknown;
    let key: string;
    try {
      payload = record.renderMode === 'fallback' ? this.plugin.renderer.renderFallback(view) : this.plugin.renderer.render(view);
      key = JSON.stringify(payload);
    } catch (error) {
      this.renderFailed(record, change, final, error);
      return undefined;
    }
    if (record.shows(key)) {
      const part = this.parts.next(record, view);
      if (part) return this.parts.prepare(record, change, final, part);
      this.counters.unchanged += 1;
      // A probe of refused credentials with nothing new to show: the card waits for the next one.
      if (this.credentialProbes.isProbe(record) && this.stop.probesBack && !final) this.credentialProbes.wait(record, false);
      else if (final) this.finish(record, true);
      // A probe with nothing new to show waits for the next one.
      else if (record.phase === 'paused' && record.outage.ongoing) this.probes.later(record, { card: record.card.id, channel: this.plugin.id });
      return undefined;
    }
    const operation = record.messagePhase === 'live' ? 'update' : 'send';
    switch (this.refusedOperations.outcome(operation, final, record.phase === 'final-in-place')) {
      case 'pause':
        record.pause();
        return undefined;
      case 'final-undeliverable':
        this.finish(record, false, this.refusedOperations.finalError(operation), true);
        return undefined;
      case 'final-as-fresh-message':
        // The message cannot be updated any more: the final goes out as a new one (a send).
        record.climbTo('final-fresh', true);
        return this.prepare(record, change);
      case 'call':
        break;
    }
    const { replyToMessage } = record.card;
    const call: BudgetedCall =
      record.messagePhase === 'live'
        ? { kind: 'update', target: record.card.target, message: record.message }
        : { kind: 'send', target: record.card.target, ...(replyToMessage && { replyToMessage }) };
    return { keys: this.budget.keysOf(call), send: () => this.deliverMain(record, change, final, { payload, key, view, call }) };
  }

  /** Sends or updates the main message with a prepared render. Never rejects. */
  private async deliverMain(
    record: CardDeliveryRecord,
    change: CardChange,
    final: boolean,
    render: { payload: unknown; key: string; view: CardView; call: BudgetedCall },
  ): Promise<void> {
    const { payload, key, view } = render;
    const { transport } = this.plugin;
    if (final) record.finalAttemptStarted();
    const call: DeliveryCall = record.messagePhase === 'live' ? 'update' : 'send';
    const attempt = final ? record.totalFinalAttempts : record.failureStreak + 1;
    const startedAt = this.deps.clock.now();
    try {
      const extraCalls = extraCallsOf(record, (kind) => this.budget.acquire(this.budget.keysOf(extraCallBudget(kind, render.call, record.message))));
      const images = view.images;
      if (call === 'update') {
        const message = record.message!;
        await this.platformCall(() => transport.update({ message, payload, final, images, extraCalls }));
      } else {
        const replacing = record.messagePhase === 'gone';
        const { replyToMessage } = record.card;
        const replaces = replacing ? record.message : undefined;
        const request = { target: record.card.target as never, payload, idempotencyKey: record.sendKey, replacing, final, images, extraCalls, ...(replaces && { replaces }) };
        record.sent(await this.platformCall(() => transport.send(replyToMessage ? { ...request, replyToMessage } : request)));
      }
    } catch (error) {
      const failure = this.failures.classify(error);
      if (failure.kind !== 'auth') record.credentialsPassed();
      this.observe(record, call, startedAt, final, attempt, failure);
      if (call === 'send' && failure.kind === 'transient') record.sendMayHaveSucceeded();
      if (failure.kind === 'transient') record.lateCalls.callMayLandLate(this.deps.clock.now(), final);
      return this.handleFailure(record, change, final, failure, call);
    }
    this.counters[call === 'update' ? 'updated' : 'sent'] += 1;
    this.stop.lift();
    this.observe(record, call, startedAt, final, attempt);
    this.probes.succeeded(record);
    if (final) record.finalCallAccepted();
    // Maybe an earlier try's message, unchanged: update it with this state before trusting it.
    if (record.callSucceeded()) return this.requeue(record, change);
    record.accepted(key);
    // The platform applied the final somewhere between the call's start and its answer: an older
    // call landing after the start may be on top of it.
    if (final) record.lateCalls.finalShown(startedAt);
    this.store.put(record, view);
    if (this.parts.next(record, view)) this.requeue(record, change);
    else if (final) this.finishAfterLateCalls(record, change);
  }

  /** The final is on the message: report it, or first send it again once older calls can no longer land over it. */
  private finishAfterLateCalls(record: CardDeliveryRecord, change: CardChange): void {
    const reassertAt = record.lateCalls.finalComplete(this.deps.clock.now());
    if (reassertAt === undefined) this.finish(record, true);
    else this.requeue(record, change, reassertAt);
  }

  /** Tells the delivery listeners about one settled call. */
  private observe(record: CardDeliveryRecord, call: DeliveryCall, startedAt: number, final: boolean, attempt: number, failure?: CallFailure): void {
    record.callSpent();
    const latencyMs = Math.max(0, this.deps.clock.now() - startedAt);
    this.deps.observers.callSettled({ channel: this.plugin.id, cardId: record.card.progressCardId, call, latencyMs, final, attempt }, failure);
  }

  /**
   * One platform call: timed for the budget's arrival delay, and given up after the channel's
   * `callTimeoutMs` (a `transient` failure: it may still land late; a call that hangs does not
   * skew the arrival delay, as only settled calls are timed).
   */
  private platformCall<T>(call: () => Promise<T>): Promise<T> {
    return withCallTimeout(() => this.budget.timed(call), this.settings.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
  }

  /**
   * The renderer threw (a plugin bug): the card switches to the plain-text render; when that throws
   * too, progressive updates pause and the final is reported undeliverable (a pure renderer would
   * throw again, so it is not retried).
   */
  private renderFailed(record: CardDeliveryRecord, change: CardChange, final: boolean, error: unknown): void {
    this.deps.logger.error(`${record.renderMode} render failed`, { card: record.card.id, channel: this.plugin.id, error: String(error) });
    this.counters.failed += 1;
    if (record.renderMode === 'rich') {
      record.useFallbackRender();
      this.requeue(record, change);
    } else if (final) this.finish(record, false, `render failed: ${String(error)}`);
    else record.pause();
  }

  /** Applies the delivery policy's failure table to a failed call of the main message. */
  private async handleFailure(record: CardDeliveryRecord, change: CardChange, final: boolean, failure: CallFailure, call: DeliveryCall): Promise<void> {
    const now = this.deps.clock.now();
    const fields = { card: record.card.id, channel: this.plugin.id, kind: failure.kind, detail: failure.detail };
    this.counters.failed += 1;
    const action = failureAction(failure.kind, (candidate) => this.failures.applies(candidate, record.credentialsRefreshed, record.renderMode === 'rich'));
    this.failures.logFailure(action, `${final ? `final attempt ${record.finalAttempts}` : call} failed`, fields);
    switch (action) {
      case 'refresh-credentials':
        record.tryCredentialRefresh();
        if (final) record.finalAttemptRefunded();
        await this.failures.refreshCredentials(fields);
        return this.requeue(record, change);
      case 'replace-message':
        record.messageGone();
        record.card.onMessageGone();
        // Non-final: the next structural change (or the final) sends a fresh card.
        if (final) this.requeue(record, change);
        return;
      case 'plain-text-render':
        record.useFallbackRender();
        record.callFailed();
        return this.requeue(record, change);
      case 'wait-rate-limit':
      case 'back-off': {
        const wait = this.failures.waitAfter(failure, () => backoffMs(this.deps.retry.updateRetryDelaysMs, record.callFailed()));
        if (final) return this.retryFinal(record, change, now, wait, failure);
        if (record.phase === 'paused' || record.failureStreak >= this.deps.retry.maxConsecutiveFailures) return this.probes.later(record, fields);
        return this.requeue(record, change, now + wait);
      }
      case 'stop-channel':
        this.stop.stop(failure, fields);
        // Credentials that worked before: the card waits (its final too) while the channel probes them back.
        if (this.stop.probesBack) {
          if (final) record.finalAttemptRefunded();
          return this.credentialProbes.wait(record, final);
        }
        // The stop's one error log says why; the final's own report carries it too.
        if (final) return this.finish(record, false, this.stop.finalError(failure), true);
        return record.pause();
      case 'platform-stop':
        this.deps.logger.debug('the user stopped the message on the platform: the run is cancelled, nothing more is sent', fields);
        if (final) return this.finish(record, true);
        record.pause();
        record.card.onPlatformStop?.(failure.detail);
        return;
      case 'stop-card':
        if (!this.unreachable.has(record)) {
          this.unreachable.add(record);
          this.deps.logger.error(`target unreachable, ${final ? 'the final is not retried' : 'no more progressive updates for this card, its final is tried once'}: ${failure.detail}`, fields);
        }
        if (final) return this.finish(record, false, failure.detail, true);
        return record.pause();
      case 'stop-operation':
        this.refusedOperations.refuse(call === 'update' ? 'update' : 'send', failure, fields);
        // The next flush decides what still works (see `RefusedOperations.outcome`).
        if (final) return this.requeue(record, change);
        return record.pause();
    }
  }

  /** Cards whose target was found unreachable (their one error is logged). */
  private readonly unreachable = new WeakSet<CardDeliveryRecord>();

  /** The final's ladder: retry on this rung after its delays, then climb; the last rung gives up. */
  private retryFinal(record: CardDeliveryRecord, change: CardChange, now: number, wait: number, failure: CallFailure): void {
    const index = Math.max(0, this.ladder.findIndex((step) => step.rung === record.phase));
    const rung = this.ladder[index]!;
    const delays = rung.rung === 'undeliverable' ? [] : rung.delaysMs;
    if (record.finalAttempts <= delays.length) {
      this.requeue(record, change, now + Math.max(wait, delays[record.finalAttempts - 1]!));
      return;
    }
    const next = this.ladder[index + 1];
    if (!next || next.rung === 'undeliverable') {
      this.finish(record, false, failure.detail);
      return;
    }
    // A final the message accepted already and that is only sent again to make sure (an older call
    // may have landed over it, or an earlier try's message was returned with older content) stays
    // on its message: a fresh one would show the final twice if the old one cannot be closed.
    record.climbTo(next.rung, FRESH_MESSAGE_AFTER[failure.kind] && !record.finalWasAccepted);
    this.requeue(record, change, now + wait);
  }

  /** Asks for another flush of `record`, not before `notBefore` (epoch ms). */
  private requeue(record: CardDeliveryRecord, change: CardChange, notBefore = this.deps.clock.now()): void {
    record.flushQueue.notBeforeTime(notBefore);
    this.markDirty(record, change);
  }

  private finish(record: CardDeliveryRecord, ok: boolean, error?: string, causeLogged = false): void {
    this.streams.forget(record);
    this.credentialProbes.forget(record);
    this.settlement.settle(record, ok, error, causeLogged);
  }
}
