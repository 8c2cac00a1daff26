import type { Clock } from '@progresscard/core';

/**
 * Card time of a replay at `speed`×: `now = traceStart + (wall − replayStart) × speed`.
 *
 * The core takes this as its injected clock, so event stamps, running-tool durations and the
 * footer are in the trace's own time, while delivery timing (budgets, per-card intervals, ticks)
 * stays on wall time like the platforms' limits.
 */
export class ReplayClock implements Clock {
  private wallStart: number | undefined;

  constructor(
    /** Epoch ms of the trace's first event. */
    readonly traceStart: number,
    /** Card-time ms per wall ms (> 0). */
    readonly speed: number,
    private readonly wall: () => number = Date.now,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a finite number > 0, got ${speed}`);
  }

  /** Starts card time at {@link traceStart} now; before this, `now()` stays at the trace start. */
  start(): void {
    this.wallStart = this.wall();
  }

  now(): number {
    if (this.wallStart === undefined) return this.traceStart;
    return Math.round(this.traceStart + (this.wall() - this.wallStart) * this.speed);
  }

  /** Wall ms from now until card time reaches `at` (0 when it already has). */
  wallDelayUntil(at: number): number {
    if (this.wallStart === undefined) throw new Error('ReplayClock.start() was not called');
    const due = this.wallStart + (at - this.traceStart) / this.speed;
    return Math.max(0, due - this.wall());
  }
}

/** Real-time tick interval of the platforms' cards, in card ms (Feishu and DingTalk: 3 s). */
export const CARD_TICK_MS = 3000;
/** Fastest wall tick the CLI configures, so a fast replay cannot flood a platform. */
export const MIN_WALL_TICK_MS = 250;

/**
 * Wall-time tick of a replay at `speed`×: `max(250, round(3000 / speed))`. Each tick then advances
 * card time by ~3 s (by more once the 250 ms floor applies, above 12×), so a running tool's
 * duration on the card follows the trace within one tick.
 */
export function replayTickMs(speed: number): number {
  return Math.max(MIN_WALL_TICK_MS, Math.round(CARD_TICK_MS / speed));
}
