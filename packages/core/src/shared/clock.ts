/**
 * Card time, in epoch milliseconds: stamps events without `at`, and gives elapsed times and the
 * footer's sent-at. A replay can inject a faster clock. Delivery timing (budgets, per-card
 * intervals, backoff, tick intervals) always runs on wall time, because platform limits do.
 */
export interface Clock {
  now(): number;
}

/** The wall clock (`Date.now`, which vitest's fake timers also control). */
export const systemClock: Clock = { now: () => Date.now() };
