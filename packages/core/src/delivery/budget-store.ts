import pThrottle from 'p-throttle';
import { systemClock, type Clock } from '../shared/clock.js';
import type { BudgetWindow } from '../plugin/contract.js';

/**
 * Where the API budgets of channels live, keyed by budget key (a channel's `budgetKey`, default its
 * id). Every card of every composition that uses the same store and key draws from one budget,
 * so one store given to two compositions (through a parent container) keeps their calls together
 * within the platform's limits. Async so that a shared store (e.g. Redis) can implement it.
 */
export interface BudgetStore {
  /**
   * Resolves when one call under `key` may be made now. `windows` are the limits of that key; all
   * apply at once (e.g. 50 per 1000 ms and 1000 per 60 000 ms). A store may keep the windows it
   * saw first for a key.
   */
  acquire(key: string, windows: readonly BudgetWindow[]): Promise<void>;
  /** Pauses every call under `key` until `epochMs` (a later pause wins). */
  pauseUntil(key: string, epochMs: number): Promise<void>;
  /**
   * Epoch ms until which `key` is paused; 0 when it is not paused. Asked before every call, so a
   * store that knows it locally may answer synchronously.
   */
  pausedUntil(key: string): Promise<number> | number;
}

/** Extra ms added to a budget window against network jitter: 2 % of it, at least 50 ms. */
export function budgetSafetyMarginMs(intervalMs: number): number {
  return Math.max(50, Math.round(intervalMs * 0.02));
}

/**
 * The budget of one key: every {@link BudgetWindow} applies at once, each enforced by a strict
 * (sliding-window) p-throttle widened by {@link budgetSafetyMarginMs} (the platform counts
 * arrivals, and network jitter can bring calls spaced exactly one window apart closer together).
 *
 * Windows are taken longest first and the shortest last, one caller at a time, so the shortest
 * window is exact; a longer window's slot can be taken up to one shorter wait early, which could
 * let one extra call into it, so longer windows keep one call in reserve.
 */
class WindowedBudget {
  private readonly gates: ReadonlyArray<() => Promise<unknown>>;
  private queue: Promise<void> = Promise.resolve();

  constructor(windows: readonly BudgetWindow[]) {
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

  /** Callers pass the gates one at a time, in arrival order (one gate queues them by itself). */
  acquire(): Promise<void> {
    if (this.gates.length === 1) return this.gates[0]!() as Promise<void>;
    const turn = this.queue.then(async () => {
      for (const gate of this.gates) await gate();
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}

/**
 * The default {@link BudgetStore}: budgets in this process's memory (p-throttle), created on a
 * key's first call. Share one instance between compositions to share their budgets.
 */
export class InMemoryBudgetStore implements BudgetStore {
  private readonly budgets = new Map<string, WindowedBudget>();
  private readonly pauses = new Map<string, number>();

  /** `clock` (default the wall clock) times pauses; platform limits are in wall time. */
  constructor(private readonly clock: Clock = systemClock) {}

  /** @throws Error (as a rejection) when a window's `limit` or `intervalMs` is not a positive integer. */
  async acquire(key: string, windows: readonly BudgetWindow[]): Promise<void> {
    await this.budget(key, windows).acquire();
  }

  async pauseUntil(key: string, epochMs: number): Promise<void> {
    this.pauses.set(key, Math.max(this.pauses.get(key) ?? 0, epochMs));
  }

  pausedUntil(key: string): number {
    const until = this.pauses.get(key) ?? 0;
    return until > this.clock.now() ? until : 0;
  }

  private budget(key: string, windows: readonly BudgetWindow[]): WindowedBudget {
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = new WindowedBudget(windows);
      this.budgets.set(key, budget);
    }
    return budget;
  }
}
