/** Source of time for cards, the ticker and the scheduler. Epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** The wall clock (`Date.now`, which vitest's fake timers also control). */
export const systemClock: Clock = { now: () => Date.now() };
