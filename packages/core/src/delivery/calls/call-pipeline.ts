import type { CallFailure, ChannelPlugin, ChannelSettings } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { DeliveryCall, DeliveryObservers } from '../delivery-observers.js';
import type { ChannelStop } from '../failures/channel-stop.js';
import type { OutageProbes } from '../failures/outage-probes.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import { chainCalls, type CallLayer } from './call-chain.js';
import { DEFAULT_CALL_TIMEOUT_MS, classifyCallError, withCallTimeout } from './call-timeout.js';

/** The channel's counters of calls (see `ChannelStats`). */
export interface CallCounters {
  sent: number;
  updated: number;
  failed: number;
  rateLimited: number;
  unchanged: number;
}

/** What {@link CallPipeline} is built from: the channel's own parts. */
export interface CallPipelineParts {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  readonly clock: Clock;
  readonly budget: ChannelBudget;
  readonly observers: DeliveryObservers;
  readonly stop: ChannelStop;
  readonly probes: OutageProbes;
  readonly counters: CallCounters;
}

/** The answer of one call of a card: its value, or its classified failure; `startedAt` is when it left (epoch ms). */
export type CallResult<T> = { readonly ok: true; readonly value: T; readonly startedAt: number } | { readonly ok: false; readonly failure: CallFailure; readonly startedAt: number };

/**
 * How every platform call of a card is made, alike for the main message, its continuation parts
 * and its native stream: through the channel's call chain (timeout → arrival timing → transport,
 * see {@link chainCalls}), classified when it fails (a timeout is `transient`), told to the
 * delivery listeners and counted on the card; a success counts, lifts a channel stop and, for the
 * main message, ends the card's outage. What a failure means for the card is the caller's
 * (`FailureHandling`).
 */
export class CallPipeline {
  /** The layers every platform call of the channel passes. */
  readonly through: CallLayer;

  constructor(private readonly parts: CallPipelineParts) {
    const { budget, settings } = parts;
    const timeoutMs = settings.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.through = chainCalls((call) => withCallTimeout(call, timeoutMs), (call) => budget.timed(call));
  }

  /** Makes one call of `record` (its `attempt`-th, counted per card or per final) and settles its bookkeeping. Never rejects. */
  async call<T>(record: CardDeliveryRecord, call: DeliveryCall, final: boolean, attempt: number, make: () => Promise<T>): Promise<CallResult<T>> {
    const startedAt = this.parts.clock.now();
    let value: T;
    try {
      value = await this.through(make);
    } catch (error) {
      const failure = classifyCallError(this.parts.plugin.transport, error);
      this.observe(record, call, startedAt, final, attempt, failure);
      return { ok: false, failure, startedAt };
    }
    this.parts.counters[call === 'update' || call === 'continuation-update' ? 'updated' : 'sent'] += 1;
    this.parts.stop.lift();
    this.observe(record, call, startedAt, final, attempt);
    // A continuation part's answer says nothing about the card's outage (probes go to the main message).
    if (call === 'send' || call === 'update') this.parts.probes.succeeded(record);
    return { ok: true, value, startedAt };
  }

  /** Tells the delivery listeners about one settled call of `record`, and counts it on the card. */
  observe(record: CardDeliveryRecord, call: DeliveryCall, startedAt: number, final: boolean, attempt: number, failure?: CallFailure): void {
    record.callSpent();
    const latencyMs = Math.max(0, this.parts.clock.now() - startedAt);
    this.parts.observers.callSettled({ channel: this.parts.plugin.id, cardId: record.card.progressCardId, call, latencyMs, final, attempt }, failure);
  }
}
