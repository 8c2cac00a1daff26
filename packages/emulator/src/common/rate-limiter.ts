import type { Clock } from './clock.js';

/** One window of a documented limit: at most `limit` calls per `intervalMs` (ms). */
export interface LimitWindow {
  readonly limit: number;
  readonly intervalMs: number;
}

/** Result of {@link SlidingWindowLimiter.tryAcquire}. */
export type LimitDecision =
  | {
      readonly allowed: true;
      /** When the call was counted (epoch ms on the limiter's clock), for {@link SlidingWindowLimiter.release}. */
      readonly at: number;
    }
  | {
      readonly allowed: false;
      /** The first window that is full. */
      readonly window: LimitWindow;
      /** Time in ms until that window has room again (≥ 1). */
      readonly retryAfterMs: number;
    };

/**
 * A sliding-window log rate limiter: for every key (an app id, a message id…) it remembers the times
 * of the calls it let through, and allows a new call only if every window still has room.
 * Refused calls are not counted (they did not consume budget).
 */
export class SlidingWindowLimiter {
  private readonly log = new Map<string, number[]>();
  private readonly longestMs: number;

  /**
   * @param windows all windows apply at once, e.g. `[{limit:50, intervalMs:1000}, {limit:1000, intervalMs:60000}]`.
   * @throws RangeError when a window has a non-positive limit or interval.
   */
  constructor(
    readonly windows: readonly LimitWindow[],
    private readonly clock: Clock,
  ) {
    for (const [i, w] of windows.entries()) {
      if (!Number.isInteger(w.limit) || w.limit <= 0) throw new RangeError(`rate limit windows[${i}].limit must be a positive integer, got ${String(w.limit)}`);
      if (!Number.isFinite(w.intervalMs) || w.intervalMs <= 0) throw new RangeError(`rate limit windows[${i}].intervalMs must be > 0, got ${String(w.intervalMs)}`);
    }
    this.longestMs = Math.max(0, ...windows.map((w) => w.intervalMs));
  }

  /** Records a call for `key` if every window allows it; otherwise says which window is full and for how long. */
  tryAcquire(key: string): LimitDecision {
    const now = this.clock();
    const times = (this.log.get(key) ?? []).filter((t) => t > now - this.longestMs);
    for (const window of this.windows) {
      const inWindow = times.filter((t) => t > now - window.intervalMs);
      if (inWindow.length >= window.limit) {
        // The window frees a slot when its oldest relevant call leaves it.
        const oldest = inWindow[inWindow.length - window.limit]!;
        this.log.set(key, times);
        return { allowed: false, window, retryAfterMs: Math.max(1, oldest + window.intervalMs - now) };
      }
    }
    times.push(now);
    this.log.set(key, times);
    return { allowed: true, at: now };
  }

  /**
   * Uncounts a call {@link tryAcquire} let through at `at` (its decision's `at`): for a platform that
   * counts calls when they arrive but does not count those it refuses for another reason. No-op when
   * no such call is recorded (or it left every window already).
   */
  release(key: string, at: number): void {
    const times = this.log.get(key);
    const index = times?.lastIndexOf(at) ?? -1;
    if (index >= 0) times!.splice(index, 1);
  }

  /** Forgets every recorded call. */
  reset(): void {
    this.log.clear();
  }
}

/** The windows one call was counted in when it arrived: see {@link countOnArrival}. */
export interface ArrivalCount {
  /** The first full window's answer when one refused the call (then it is counted in none). */
  readonly refused?: Extract<LimitDecision, { allowed: false }>;
  /** Uncounts the call from every window that counted it, for a call then refused for another reason; idempotent. */
  release(): void;
}

/**
 * Counts one call in every `[limiter, key]` at once, when it arrives: a platform counts incoming requests,
 * so an emulator counts a call before its injected latency (a slow answer must not move the call into a
 * later window). When one window is full the call is counted in none and `refused` says which window.
 */
export function countOnArrival(entries: ReadonlyArray<readonly [SlidingWindowLimiter, string]>): ArrivalCount {
  const counted: Array<readonly [SlidingWindowLimiter, string, number]> = [];
  const release = () => {
    for (const [limiter, key, at] of counted.splice(0)) limiter.release(key, at);
  };
  for (const [limiter, key] of entries) {
    const decision = limiter.tryAcquire(key);
    if (!decision.allowed) {
      release();
      return { refused: decision, release };
    }
    counted.push([limiter, key, decision.at]);
  }
  return { release };
}
