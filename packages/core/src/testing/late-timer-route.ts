import type { BudgetKey } from '../plugin/contract.js';
import type { BudgetStore } from '../delivery/rate-limits/budget-store.js';
import type { SlotRank } from '../delivery/rate-limits/slot-ranks.js';
import type { FakeTime } from './fake-time.js';

/** What {@link runLateTimerRoute} measured: a saturated route whose timers all fire late. */
export interface LateTimerRoute {
  /** Epoch ms each call left (as the store gave it), in order. */
  readonly departures: readonly number[];
  /** Epoch ms each call was counted at (`departure + arrivalDelayMs`), in order. */
  readonly arrivals: readonly number[];
  /** Ms from the first call's departure to the last one's. */
  readonly elapsedMs: number;
}

/** Options of {@link runLateTimerRoute}. */
export interface LateTimerRouteOptions {
  /** The store under test (any {@link BudgetStore}: in memory, Redis...). */
  readonly store: BudgetStore;
  /** Fake time: the run never waits on the wall clock. */
  readonly time: FakeTime;
  /** The one route every call draws from. */
  readonly key: BudgetKey;
  /** Calls to make, back to back (a saturated route). */
  readonly calls: number;
  /** Ms each timer fires after the departure the store gave (timer lateness). */
  readonly latenessMs: number;
  /** `SlotRequest.arrivalDelayMs` of every call. */
  readonly arrivalDelayMs: number;
  /** `SlotRequest.rank` of every call (default the store's default, `structural`). */
  readonly rank?: SlotRank;
}

/**
 * Drives a {@link BudgetStore} like the core's pump on a saturated route whose timers fire late:
 * ask `nextDeparture`, sleep until it plus `latenessMs` on fake time, then `reserve` from now. A
 * store that spaces each call from the previous call's actual departure loses the lateness on
 * every call; one anchored to the slots it booked does not. Contract for every `BudgetStore`.
 */
export async function runLateTimerRoute(options: LateTimerRouteOptions): Promise<LateTimerRoute> {
  const { store, time, key, calls, latenessMs, arrivalDelayMs, rank } = options;
  const departures: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const due = await store.nextDeparture({ keys: [key], notBefore: time.now(), arrivalDelayMs, ...(rank ? { rank } : {}) });
    // The first call's timer is as late as every other; the sleep is on fake time.
    await time.advance(Math.max(0, due - time.now()) + latenessMs);
    departures.push(await store.reserve({ keys: [key], notBefore: time.now(), arrivalDelayMs, ...(rank ? { rank } : {}) }));
  }
  return {
    departures,
    arrivals: departures.map((departure) => departure + arrivalDelayMs),
    elapsedMs: departures.length === 0 ? 0 : departures.at(-1)! - departures[0]!,
  };
}
