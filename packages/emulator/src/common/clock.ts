/**
 * The emulator clock: a function returning the current time in epoch milliseconds.
 * Every time-dependent rule of the emulators (rate-limit windows, fault time windows, token expiry,
 * the 14-day edit window) reads this clock, so tests can move time without waiting.
 */
export type Clock = () => number;

/** The wall clock (`Date.now`). */
export const systemClock: Clock = () => Date.now();

/** A clock that only moves when told to; handy for tests that age messages or expire tokens. */
export interface ManualClock {
  /** Current time in epoch ms. */
  (): number;
  /** Moves the clock forward by `ms` (must be ≥ 0). @throws RangeError on a negative or non-finite value. */
  advance(ms: number): void;
  /** Sets the clock to `epochMs`. @throws RangeError on a non-finite value. */
  set(epochMs: number): void;
}

/**
 * Creates a {@link ManualClock} starting at `startMs` (epoch ms, default `Date.now()`).
 * @throws RangeError when `startMs` is not a finite number.
 */
export function createManualClock(startMs: number = Date.now()): ManualClock {
  if (!Number.isFinite(startMs)) throw new RangeError(`createManualClock: startMs must be a finite number, got ${String(startMs)}`);
  let now = startMs;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`ManualClock.advance: ms must be a finite number ≥ 0, got ${String(ms)}`);
    now += ms;
  };
  clock.set = (epochMs: number) => {
    if (!Number.isFinite(epochMs)) throw new RangeError(`ManualClock.set: epochMs must be a finite number, got ${String(epochMs)}`);
    now = epochMs;
  };
  return clock;
}
