import type { CallFailure, ChannelPlugin, ChannelSettings } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { DeliveryCall, DeliveryObservers } from '../delivery-observers.js';
import type { ChannelStop } from '../failures/channel-stop.js';
import type { OutageProbes } from '../failures/outage-probes.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import { callCap, type CallCap } from './call-cap.js';
import { chainCalls, type CallInfo, type CallLayer } from './call-chain.js';
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

/**
 * The answer of one call of a card: its value, its classified failure, or `held` when the call cap
 * answered a progressive call without a platform call (nothing was shown: `until` is the epoch ms
 * from which the cap lets it go, `Infinity` when only the final's call is left). `startedAt` is
 * when it left (epoch ms).
 */
export type CallResult<T> =
  | { readonly ok: true; readonly value: T; readonly startedAt: number }
  | { readonly ok: false; readonly failure: CallFailure; readonly startedAt: number }
  | { readonly ok: 'held'; readonly until: number; readonly startedAt: number };

/**
 * How every platform call of a card is made, alike for the main message, its continuation parts
 * and its native stream: through the channel's call chain (call cap → timeout → arrival timing →
 * transport, see {@link chainCalls}), classified when it fails (a timeout is `transient`), told to the
 * delivery listeners and counted on the card; a success counts, lifts a channel stop and, for the
 * main message, ends the card's outage. What a failure means for the card is the caller's
 * (`FailureHandling`).
 */
export class CallPipeline {
  /**
   * The links every platform call of the channel passes, its cards' and its own (credential
   * refreshes, completion pings, uploads): the call cap (cards' progressive updates, when the
   * channel has `runCallCap`), the timeout (`callTimeoutMs`), the arrival timing (cards' calls
   * only: a token refresh or a file upload says nothing of how long a card's call takes to land).
   */
  readonly through: CallLayer;
  /** The channel's call cap (`runCallCap`); undefined without one. */
  private readonly cap: CallCap | undefined;

  constructor(private readonly parts: CallPipelineParts) {
    const { budget, settings, plugin, clock } = parts;
    const timeoutMs = settings.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const capCalls = plugin.switches?.runCallCap;
    this.cap = capCalls ? callCap(capCalls, () => settings.tickMs, clock) : undefined;
    this.through = chainCalls(
      ...(this.cap ? [this.cap.layer] : []),
      (call) => withCallTimeout(call, timeoutMs),
      (call, info) => (info.kind === 'card' || info.kind === 'moved-notice' ? budget.timed(call) : call()),
    );
  }

  /**
   * Epoch ms until which the call cap holds back a progressive call of `record` (`Infinity`: only
   * the final's call is left); undefined when such a call may go now. Lets a flush wait without
   * taking a budget slot for a call the cap would hold back.
   */
  heldUntil(record: CardDeliveryRecord): number | undefined {
    const at = this.cap?.nextProgressAt(record);
    return at !== undefined && this.parts.clock.now() < at ? at : undefined;
  }

  /**
   * Makes one call of `record` (its `attempt`-th, counted per card or per final) and settles its
   * bookkeeping. `skippable`: a progressive call (an update of a whole render, a stream's append
   * of new text or a roll-over's fresh start; never a final), which the call cap may hold back: then the answer is `held`, and
   * nothing is counted or reported (no platform call was made). Never rejects.
   */
  async call<T>(record: CardDeliveryRecord, call: DeliveryCall, final: boolean, attempt: number, make: () => Promise<T>, skippable = false): Promise<CallResult<T>> {
    const startedAt = this.parts.clock.now();
    const info: CallInfo = { kind: 'card', record, skippable: skippable && !final };
    let made = false;
    let value: T;
    try {
      value = await this.through(() => {
        made = true;
        return make();
      }, info);
      if (!made) return { ok: 'held', until: this.cap?.nextProgressAt(record) ?? startedAt, startedAt };
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
