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
}

/** The defaults of {@link RetrySettings}. */
export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  finalRetryDelaysMs: [1000, 2000, 4000],
  updateRetryDelaysMs: [1000, 2000, 4000],
  maxConsecutiveFailures: 3,
  probeDelaysMs: [5000, 10_000, 20_000, 30_000],
  defaultRateLimitWaitMs: 1000,
  lateApplyWindowMs: 10_000,
};
