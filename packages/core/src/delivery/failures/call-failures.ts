import type { CallFailure, ChannelPlugin, ChannelSettings } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import { DEFAULT_CALL_TIMEOUT_MS, classifyCallError, withCallTimeout } from '../calls/call-timeout.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import type { ChannelStop } from './channel-stop.js';
import type { FailureAction } from './delivery-policy.js';
import type { RetrySettings } from './retry-settings.js';

/** What {@link CallFailures} needs of its channel. */
export interface CallFailuresDeps {
  readonly plugin: ChannelPlugin;
  readonly settings: ChannelSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetrySettings;
  readonly budget: Pick<ChannelBudget, 'pauseChannel'>;
  readonly stop: ChannelStop;
  /** The channel's counters; `rateLimited` counts the rate-limit answers. */
  readonly counters: { rateLimited: number };
}

/**
 * The channel-wide side of a failed platform call, shared by the main message and its continuation
 * parts: classifying the error, whether a failure action applies now, the one log line, the wait
 * before the next try (pausing the channel on a channel-wide rate limit) and the credential refresh.
 */
export class CallFailures {
  constructor(private readonly deps: CallFailuresDeps) {}

  /** A timeout is transient; `classify` must not throw, and if it does anyway the call counts as transient too. */
  classify(error: unknown): CallFailure {
    return classifyCallError(this.deps.plugin.transport, error);
  }

  /**
   * One line per failed call, except where a line would say nothing new: a credential refresh is
   * routine (debug), and a channel, card or operation stop logs its one error itself.
   */
  logFailure(action: FailureAction, message: string, fields: Record<string, unknown>): void {
    if (action === 'refresh-credentials') this.deps.logger.debug(`${message}; refreshing credentials`, fields);
    else if (action !== 'stop-channel' && action !== 'stop-card' && action !== 'stop-operation') this.deps.logger.warn(message, fields);
  }

  /**
   * Whether `action` applies now (the preconditions of the failure table). While credentials are
   * refused channel-wide, no card refreshes again: each final gets its one try as it is.
   */
  applies(action: FailureAction, credentialsRefreshed: boolean, richRender: boolean): boolean {
    if (action === 'refresh-credentials') {
      return !credentialsRefreshed && this.deps.plugin.transport.refreshAuth !== undefined && this.deps.stop.stoppedBy !== 'auth';
    }
    if (action === 'plain-text-render') return richRender;
    return true;
  }

  /** The wait before the next try, ms: a rate limit's retry-after (pausing the channel when it says so), else `backOff()`. */
  waitAfter(failure: CallFailure, backOff: () => number): number {
    if (failure.kind !== 'rate-limited') return backOff();
    this.deps.counters.rateLimited += 1;
    const wait = failure.retryAfterMs ?? this.deps.retry.defaultRateLimitWaitMs;
    if (failure.scope === 'channel') this.deps.budget.pauseChannel(this.deps.clock.now() + wait);
    return wait;
  }

  /** Fetches fresh credentials (bounded by the call timeout); a failure is logged, never thrown. */
  async refreshCredentials(fields: Record<string, unknown>): Promise<void> {
    try {
      await withCallTimeout(() => this.deps.plugin.transport.refreshAuth!(), this.deps.settings.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
    } catch (error) {
      this.deps.logger.error('credential refresh failed', { ...fields, error: String(error) });
    }
  }
}
