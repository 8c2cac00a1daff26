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

/**
 * The clock one card's times run on. With {@link systemClock}: epoch ms at the card's start,
 * advanced by `performance.now()` since, so elapsed times (a running tool, the footer's duration)
 * are monotonic: a wall-clock step (NTP, a VM resumed, an admin's `date -s`) of +1 h does not show
 * a running tool at "1h", nor −1 h a footer at "0s". A replay's injected clock is used as it is.
 * vitest's fake timers move `performance.now()` with `Date.now()`, and `setSystemTime` steps only the wall clock.
 */
export function cardClock(clock: Clock): Clock {
  if (clock !== systemClock) return clock;
  const startedAt = Date.now();
  const startedAtMonotonic = performance.now();
  return { now: () => startedAt + Math.round(performance.now() - startedAtMonotonic) };
}
