import pThrottle from 'p-throttle';
import type { Clock } from './clock.js';
import type { BudgetWindow } from './plugin.js';

/** Extra ms added to a budget window against network jitter: 2 % of it, at least 50 ms. */
export function budgetSafetyMarginMs(intervalMs: number): number {
  return Math.max(50, Math.round(intervalMs * 0.02));
}

/**
 * The API budget of one channel, shared by all its cards: every {@link BudgetWindow} applies at
 * once (e.g. Feishu 50/s and 1000/min per app), each enforced by a strict (sliding-window)
 * p-throttle. A rate-limited answer can pause the whole budget ({@link pauseUntil}).
 *
 * Each window is widened by {@link budgetSafetyMarginMs} (50 ms on a 1 s window): the platform counts
 * arrivals, and network jitter can bring calls spaced exactly one window apart closer together.
 *
 * Windows are taken longest first and the shortest last, one caller at a time, so the shortest
 * window is exact; a longer window's slot can be taken up to one shorter wait early, which could
 * let one extra call into it, so longer windows keep one call in reserve.
 */
export class ChannelBudget {
  private readonly gates: ReadonlyArray<() => Promise<unknown>>;
  private pausedUntilMs = 0;

  /** @throws Error when a window's `limit` or `intervalMs` is not a positive integer. */
  constructor(windows: readonly BudgetWindow[], private readonly clock: Clock) {
    for (const [index, window] of windows.entries()) {
      if (!Number.isSafeInteger(window.limit) || window.limit <= 0) {
        throw new Error(`budget[${index}].limit must be a positive integer, got ${JSON.stringify(window.limit)}`);
      }
      if (!Number.isSafeInteger(window.intervalMs) || window.intervalMs <= 0) {
        throw new Error(`budget[${index}].intervalMs must be a positive integer, got ${JSON.stringify(window.intervalMs)}`);
      }
    }
    const ordered = [...windows].sort((a, b) => b.intervalMs - a.intervalMs);
    this.gates = ordered.map((window, index) => {
      const last = index === ordered.length - 1;
      const limit = last || window.limit === 1 ? window.limit : window.limit - 1;
      return pThrottle({ limit, interval: window.intervalMs + budgetSafetyMarginMs(window.intervalMs), strict: true })(async () => undefined);
    });
  }

  /** Epoch ms until which the channel is paused (0 when not paused). */
  get pausedUntil(): number {
    return this.pausedUntilMs > this.clock.now() ? this.pausedUntilMs : 0;
  }

  /** Pauses every call of the channel until `epochMs` (a later pause wins). */
  pauseUntil(epochMs: number): void {
    this.pausedUntilMs = Math.max(this.pausedUntilMs, epochMs);
  }

  /** Resolves when one call may be made now. Call it from one place at a time. */
  async acquire(): Promise<void> {
    for (const gate of this.gates) await gate();
  }
}
