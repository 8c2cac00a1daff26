/** Retry timing of a composition's deliveries. Durations in ms. */
export interface RetrySettings {
  /** Backoff before each retry of the final state, per rung of the final's ladder (default 1000, 2000, 4000). */
  readonly finalRetryDelaysMs: readonly number[];
  /** Backoff of a failed progressive update, by consecutive failure (default 1000, 2000, 4000). */
  readonly updateRetryDelaysMs: readonly number[];
  /** Consecutive failures after which progressive updates pause until the final (default 3). */
  readonly maxConsecutiveFailures: number;
  /** Wait after a rate-limited answer without a retry-after (default 1000). */
  readonly defaultRateLimitWaitMs: number;
}

/** The defaults of {@link RetrySettings}. */
export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  finalRetryDelaysMs: [1000, 2000, 4000],
  updateRetryDelaysMs: [1000, 2000, 4000],
  maxConsecutiveFailures: 3,
  defaultRateLimitWaitMs: 1000,
};
