import type { BudgetStore, SlotRequest } from '@progresscard/core/store';
import type { BudgetKey } from '@progresscard/core/plugin';
import pThrottle from 'p-throttle';

/** One key's gates: a strict p-throttle per window, longest window first, for the windows given. */
interface KeyGates {
  readonly windows: string;
  readonly gates: readonly (() => Promise<void>)[];
}

/**
 * The bench's third design: the core's budget as p-throttle (https://github.com/sindresorhus/p-throttle),
 * the throttle this project's design first named. Every budget key gets a strict throttle per
 * window with the window's documented `limit` and `intervalMs` as they are — no pacing, no safety
 * margin, no counting at the expected arrival (p-throttle counts a call when it leaves) — and a call
 * passes each key's throttles in turn, longest window first so that the shortest window releases it.
 * One process only: the throttles live in this process's memory.
 *
 * p-throttle has no look-ahead: {@link nextDeparture} answers `notBefore` (the core picks a card at
 * once and then queues behind the throttle), and no pause; {@link pauseUntil} (a platform's
 * retry-after) is kept here and waited for before the throttles, as the core expects of a store.
 */
export class PThrottleBudgetStore implements BudgetStore {
  /** {@link reserve} resolves when p-throttle lets the call through: its time is waiting, not a round trip to lead by. */
  readonly answersWhenDue = true;
  private readonly keys = new Map<string, KeyGates>();
  private readonly pausedUntil = new Map<string, number>();

  async reserve(request: SlotRequest): Promise<number> {
    const wait = this.nextDeparture(request) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const key of request.keys) for (const gate of this.gatesOf(key)) await gate();
    return Date.now();
  }

  nextDeparture(request: SlotRequest): number {
    let at = request.notBefore;
    for (const key of request.keys) at = Math.max(at, this.pausedUntil.get(key.key) ?? 0);
    return at;
  }

  async pauseUntil(key: string, epochMs: number): Promise<void> {
    this.pausedUntil.set(key, Math.max(epochMs, this.pausedUntil.get(key) ?? 0));
  }

  private gatesOf(key: BudgetKey): readonly (() => Promise<void>)[] {
    const windows = JSON.stringify(key.windows);
    let entry = this.keys.get(key.key);
    if (entry?.windows !== windows) {
      const longestFirst = [...key.windows].sort((a, b) => b.intervalMs - a.intervalMs);
      entry = { windows, gates: longestFirst.map((window) => pThrottle({ limit: window.limit, interval: window.intervalMs, strict: true })(async () => undefined)) };
      this.keys.set(key.key, entry);
    }
    return entry.gates;
  }
}
