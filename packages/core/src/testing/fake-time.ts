/**
 * Time a test controls. The kit never imports a test framework: hand it your framework's fake
 * timers, e.g. with vitest `fakeTime(vi)` after `vi.useFakeTimers()`.
 */
export interface FakeTime {
  /** Epoch ms now (the faked `Date.now`). */
  now(): number;
  /** Moves time forward by `ms`, running the timers and promise callbacks due on the way. */
  advance(ms: number): Promise<void>;
}

/** The part of vitest's `vi` (or jest's `jest`, which has the same method) the kit uses. */
export interface FakeTimers {
  advanceTimersByTimeAsync(ms: number): Promise<unknown>;
}

/**
 * {@link FakeTime} over a framework's fake timers (`vi` in vitest). Install the fake timers first
 * (`vi.useFakeTimers({ now })`); `now()` reads the faked `Date.now`.
 */
export function fakeTime(timers: FakeTimers): FakeTime {
  return {
    now: () => Date.now(),
    advance: async (ms) => {
      if (ms > 0) await timers.advanceTimersByTimeAsync(ms);
    },
  };
}
