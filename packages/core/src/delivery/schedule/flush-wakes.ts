import type { Clock } from '../../shared/clock.js';
import { timerDelay } from '../../shared/timer-duration.js';

/**
 * One timer per card that asks for a flush at a set time (a `wait` outcome's `wakeAt`: a
 * progressive call the call cap held back goes out once the cap allows, even when the card does
 * not change again). A later wake of the same card replaces the earlier one; timers are unref'd
 * (a held-back progressive update never keeps the process alive).
 */
export class FlushWakes<T> {
  private readonly timers = new Map<T, NodeJS.Timeout>();

  /** `clock`: wall time (epoch ms); `wake(item)` requests the flush. */
  constructor(
    private readonly clock: Clock,
    private readonly wake: (item: T) => void,
  ) {}

  /** Wakes `item` at `epochMs` (replacing a wake set before). */
  at(item: T, epochMs: number): void {
    this.forget(item);
    const timer = setTimeout(() => {
      this.timers.delete(item);
      // A wait cut at the timer's limit is set again; otherwise the flush is requested.
      if (this.clock.now() < epochMs) this.at(item, epochMs);
      else this.wake(item);
    }, timerDelay(epochMs - this.clock.now()));
    timer.unref();
    this.timers.set(item, timer);
  }

  /** Drops `item`'s wake, if any. */
  forget(item: T): void {
    const timer = this.timers.get(item);
    if (timer) clearTimeout(timer);
    this.timers.delete(item);
  }

  /** Drops every wake (shutdown). */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
