import type { BudgetKey, CallFailure, ChannelPlugin, ChannelSettings } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import type { CallLayer } from '../calls/call-chain.js';
import type { CallCounters } from '../calls/call-pipeline.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { DeliveryCall } from '../delivery-observers.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import { WAIT, again, settle, type FlushOutcome } from '../schedule/flush-outcome.js';
import type { ChannelStop } from './channel-stop.js';
import type { CredentialProbes } from './credential-probes.js';
import { backoffMs, failureAction, type FailureAction } from './failure-actions.js';
import type { FinalLadder } from './final-ladder.js';
import type { OutageProbes } from './outage-probes.js';
import type { RefusedOperations } from './refused-operations.js';
import type { RetrySettings } from './retry-settings.js';

/** What {@link FailureHandling} is built from: the channel's own parts. */
export interface FailureHandlingParts {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetrySettings;
  readonly budget: Pick<ChannelBudget, 'pauseChannel' | 'pauseKeys'>;
  readonly stop: ChannelStop;
  readonly refusedOperations: RefusedOperations;
  readonly probes: OutageProbes;
  /** Cards waiting while credentials that had worked are refused, and the probes that bring them back. */
  readonly credentialProbes: CredentialProbes;
  readonly ladder: FinalLadder;
  /** The channel's counters: `failed` counts failed calls and renders, `rateLimited` the rate-limit answers. */
  readonly counters: Pick<CallCounters, 'failed' | 'rateLimited'>;
  /** The channel's call chain (`CallPipeline.through`): a credential refresh is bounded by its timeout. */
  readonly through: CallLayer;
}

/**
 * Applies the failure table (`failure-actions.ts`) to a failed call of a card, alike for its main
 * message (and native stream) and its continuation parts: picks the action that applies now, logs
 * the one line, does the card's and the channel's side of it (a credential refresh, a channel
 * stop, a refused scope, a pause and its probes) and answers what the card needs next. A failed
 * final walks the final's ladder (`final-ladder.ts`).
 */
export class FailureHandling {
  /** Cards whose target was found unreachable (their one error is logged). */
  private readonly unreachable = new WeakSet<CardDeliveryRecord>();

  constructor(private readonly parts: FailureHandlingParts) {}

  /**
   * A call of the main message (`send` or `update`, also of its stream) failed; `keys` are the
   * budget keys it drew from (paused by a rate limit of its method, `scope: 'method'`).
   */
  async mainFailed(record: CardDeliveryRecord, final: boolean, failure: CallFailure, call: DeliveryCall, keys: readonly BudgetKey[] = []): Promise<FlushOutcome> {
    const { clock, logger, retry, stop, probes } = this.parts;
    const now = clock.now();
    const fields = { card: record.card.id, channel: this.parts.plugin.id, kind: failure.kind, detail: failure.detail };
    this.parts.counters.failed += 1;
    const action = failureAction(failure.kind, (candidate) => this.applies(candidate, record.credentialsRefreshed, record.renderMode === 'rich'));
    this.logFailure(action, `${final ? `final attempt ${record.finalAttempts}` : call} failed`, fields);
    switch (action) {
      case 'refresh-credentials':
        record.tryCredentialRefresh();
        if (final) record.finalAttemptRefunded();
        await this.refreshCredentials(fields);
        return again();
      case 'replace-message':
        record.messageGone();
        record.card.onMessageGone();
        // Non-final: the next structural change (or the final) sends a fresh card.
        return final ? again() : WAIT;
      case 'plain-text-render':
        record.useFallbackRender();
        record.callFailed();
        return again();
      case 'wait-rate-limit':
      case 'back-off': {
        const wait = this.waitAfter(failure, () => backoffMs(retry.updateRetryDelaysMs, record.callFailed()), keys);
        if (final) return this.parts.ladder.afterFailure(record, failure, now, wait);
        if (record.phase === 'paused' || record.failureStreak >= retry.maxConsecutiveFailures) {
          probes.later(record, fields);
          return WAIT;
        }
        return again(now + wait);
      }
      case 'stop-channel':
        stop.stop(failure, fields);
        // Credentials that worked before: the card waits (its final too) while the channel probes them back.
        if (stop.probesBack) {
          if (final) record.finalAttemptRefunded();
          this.parts.credentialProbes.wait(record, final);
          return WAIT;
        }
        // The stop's one error log says why; the final's own report carries it too.
        if (final) return settle(false, stop.finalError(failure), true);
        record.pause();
        return WAIT;
      case 'platform-stop':
        logger.debug('the user stopped the message on the platform: the run is cancelled, nothing more is sent', fields);
        if (final) return settle(true);
        record.pause();
        record.card.onPlatformStop?.(failure.detail);
        return WAIT;
      case 'stop-card':
        if (!this.unreachable.has(record)) {
          this.unreachable.add(record);
          logger.error(`target unreachable, ${final ? 'the final is not retried' : 'no more progressive updates for this card, its final is tried once'}: ${failure.detail}`, fields);
        }
        if (final) return settle(false, failure.detail, true);
        record.pause();
        return WAIT;
      case 'stop-operation':
        this.parts.refusedOperations.refuse(call === 'update' ? 'update' : 'send', failure, fields);
        // The next flush decides what still works (see `RefusedOperations.outcome`).
        if (final) return again();
        record.pause();
        return WAIT;
    }
  }

  /**
   * A call of continuation part `index` failed: like the main message, except that a part has no
   * plain-text render (a refused part backs off) and a gone part is sent again under a new key. A
   * final's part walks {@link FinalLadder.partAfterFailure}; a progressive part waits for the card's
   * next change after too many failures.
   */
  async partFailed(record: CardDeliveryRecord, final: boolean, index: number, failure: CallFailure, keys: readonly BudgetKey[] = []): Promise<FlushOutcome> {
    const { clock, retry } = this.parts;
    const now = clock.now();
    const fields = { card: record.card.id, channel: this.parts.plugin.id, part: index + 2, kind: failure.kind, detail: failure.detail };
    this.parts.counters.failed += 1;
    if (failure.kind !== 'auth') record.credentialsPassed();
    const action = failureAction(failure.kind, (candidate) => this.applies(candidate, record.credentialsRefreshed, false));
    this.logFailure(action, 'continuation part failed', fields);
    if (action === 'refresh-credentials') {
      record.tryCredentialRefresh();
      await this.refreshCredentials(fields);
      return again();
    }
    if (action === 'replace-message') {
      record.parts.replace(index);
      return again();
    }
    if (action === 'stop-operation' && final && !record.parts.message(index)) {
      // The part's send is refused, but the main message may still be updated: it says what is missing.
      record.parts.giveUp(index);
      return again();
    }
    if (action === 'stop-channel' || action === 'stop-card' || action === 'stop-operation') {
      // The main message holds the final already; the missing parts are reported when it settles.
      if (action === 'stop-channel') this.parts.stop.stop(failure, fields);
      return final ? settle(true) : WAIT;
    }
    let failures = 0;
    const wait = this.waitAfter(failure, () => {
      failures = record.parts.failed(index);
      return backoffMs(retry.updateRetryDelaysMs, failures);
    }, keys);
    if (failures === 0) failures = record.parts.failed(index);
    if (final) return this.parts.ladder.partAfterFailure(record, index, failures, now, wait);
    // Progressive: after too many failures the part waits for the card's next change.
    return failures < retry.maxConsecutiveFailures ? again(now + wait) : WAIT;
  }

  /**
   * The renderer threw (a plugin bug): the card switches to the plain-text render; when that throws
   * too, progressive updates pause and the final is reported undeliverable (a pure renderer would
   * throw again, so it is not retried).
   */
  renderFailed(record: CardDeliveryRecord, final: boolean, error: unknown): FlushOutcome {
    this.parts.logger.error(`${record.renderMode} render failed`, { card: record.card.id, channel: this.parts.plugin.id, error: String(error) });
    this.parts.counters.failed += 1;
    if (record.renderMode === 'rich') {
      record.useFallbackRender();
      return again();
    }
    if (final) return settle(false, `render failed: ${String(error)}`);
    record.pause();
    return WAIT;
  }

  /** Fetches fresh credentials (bounded by the call timeout); a failure is logged, never thrown. */
  async refreshCredentials(fields: Record<string, unknown>): Promise<void> {
    try {
      await this.parts.through(() => this.parts.plugin.transport.refreshAuth!(), { kind: 'credentials' });
    } catch (error) {
      this.parts.logger.error('credential refresh failed', { ...fields, error: String(error) });
    }
  }

  /**
   * One line per failed call, except where a line would say nothing new: a credential refresh is
   * routine (debug), and a channel, card or operation stop logs its one error itself.
   */
  private logFailure(action: FailureAction, message: string, fields: Record<string, unknown>): void {
    if (action === 'refresh-credentials') this.parts.logger.debug(`${message}; refreshing credentials`, fields);
    else if (action !== 'stop-channel' && action !== 'stop-card' && action !== 'stop-operation') this.parts.logger.warn(message, fields);
  }

  /**
   * Whether `action` applies now (the preconditions of the failure table). While credentials are
   * refused channel-wide, no card refreshes again: each final gets its one try as it is.
   */
  private applies(action: FailureAction, credentialsRefreshed: boolean, richRender: boolean): boolean {
    if (action === 'refresh-credentials') {
      return !credentialsRefreshed && this.parts.plugin.transport.refreshAuth !== undefined && this.parts.stop.stoppedBy !== 'auth';
    }
    if (action === 'plain-text-render') return richRender;
    return true;
  }

  /**
   * The card's wait before its next try, ms: a rate limit's retry-after (pausing the channel when it
   * says so), else `backOff()`. A rate limit of the failed call's method pauses that call's `keys`
   * instead and the card waits for nothing itself: its next call of that method waits for the keys,
   * a call of another method goes at once.
   */
  private waitAfter(failure: CallFailure, backOff: () => number, keys: readonly BudgetKey[]): number {
    if (failure.kind !== 'rate-limited') return backOff();
    this.parts.counters.rateLimited += 1;
    const wait = failure.retryAfterMs ?? this.parts.retry.defaultRateLimitWaitMs;
    if (failure.scope === 'method' && keys.length > 0) {
      this.parts.budget.pauseKeys(keys, this.parts.clock.now() + wait);
      return 0;
    }
    if (failure.scope === 'channel') this.parts.budget.pauseChannel(this.parts.clock.now() + wait);
    return wait;
  }
}
