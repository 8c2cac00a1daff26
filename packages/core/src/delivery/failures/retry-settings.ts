import { showValue } from '../../shared/show-value.js';
import { checkTimerMs } from '../../shared/timer-duration.js';

/** Retry timing of a composition's deliveries. Durations in ms. */
export interface RetrySettings {
  /** Backoff before each retry of the final state, per rung of the final's ladder (default 1000, 2000, 4000). */
  readonly finalRetryDelaysMs: readonly number[];
  /** Backoff of a failed progressive update, by consecutive failure (default 1000, 2000, 4000). */
  readonly updateRetryDelaysMs: readonly number[];
  /** Consecutive failures after which progressive updates pause and the card probes (default 3). */
  readonly maxConsecutiveFailures: number;
  /** Waits between probes of a paused card, by probe; the last repeats (default 5000, 10 000, 20 000, 30 000). */
  readonly probeDelaysMs: readonly number[];
  /** Wait after a rate-limited answer without a retry-after (default 1000). */
  readonly defaultRateLimitWaitMs: number;
  /**
   * How long after it failed without a clear answer (a `transient` failure: timeout, connection
   * lost) a call may still be applied by the platform (default 10 000, the plugins' request
   * timeout). A final accepted within that time is sent once more when it ends, so an older
   * update applied late cannot stay on top of it; `finalDelivery` waits for that.
   */
  readonly lateApplyWindowMs: number;
  /**
   * How long a final waits for credentials the platform refuses channel-wide after they had worked
   * (a rotated secret) while the channel probes them back with `probeDelaysMs`; then it is reported
   * undeliverable (default 300 000: 5 minutes).
   */
  readonly credentialWaitMs: number;
}

/** The defaults of {@link RetrySettings}. */
export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  finalRetryDelaysMs: [1000, 2000, 4000],
  updateRetryDelaysMs: [1000, 2000, 4000],
  maxConsecutiveFailures: 3,
  probeDelaysMs: [5000, 10_000, 20_000, 30_000],
  defaultRateLimitWaitMs: 1000,
  lateApplyWindowMs: 10_000,
  credentialWaitMs: 300_000,
};

/**
 * Checks retry settings: every delay an integer from 0 to 2 147 483 647 ms (setTimeout's limit),
 * `maxConsecutiveFailures` a positive integer.
 * @throws Error naming the field (e.g. `retry.probeDelaysMs[2]`) and value.
 */
export function checkRetrySettings(settings: RetrySettings): RetrySettings {
  for (const field of ['finalRetryDelaysMs', 'updateRetryDelaysMs', 'probeDelaysMs'] as const) {
    const delays: unknown = settings[field];
    if (!Array.isArray(delays) || delays.length === 0) throw new Error(`retry.${field} = ${showValue(delays)}: must list at least one delay (ms)`);
    for (const [i, delay] of delays.entries()) checkTimerMs(`retry.${field}[${i}]`, delay, 0);
  }
  checkTimerMs('retry.defaultRateLimitWaitMs', settings.defaultRateLimitWaitMs, 0);
  checkTimerMs('retry.lateApplyWindowMs', settings.lateApplyWindowMs, 0);
  checkTimerMs('retry.credentialWaitMs', settings.credentialWaitMs, 0);
  const max: unknown = settings.maxConsecutiveFailures;
  if (!(typeof max === 'number' && Number.isSafeInteger(max) && max > 0)) throw new Error(`retry.maxConsecutiveFailures = ${showValue(max)}: must be a positive integer`);
  return settings;
}
