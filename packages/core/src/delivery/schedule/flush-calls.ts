import type { BudgetKey } from '../../plugin/contract.js';
import type { FlushQueue } from './flush-queue.js';

/** What the pump flushes: anything that owns a {@link FlushQueue}. */
export interface Flushable {
  readonly flushQueue: FlushQueue;
}

/** One platform call a flush decided to make: the budgets it draws from, and the call itself. */
export interface PreparedCall {
  readonly keys: readonly BudgetKey[];
  /** Makes the call and handles its outcome; must not reject. */
  send(): Promise<void>;
}

/** The budgets every call passes. */
export interface FlushGate {
  /** Epoch ms a call under `keys` of flush rank `rank` could leave at, without reserving it. */
  nextDeparture(keys: readonly BudgetKey[], rank?: number): Promise<number> | number;
  /** Reserves a slot under `keys` for a call of flush rank `rank`; resolves with the epoch ms the call may leave at. */
  reserve(keys: readonly BudgetKey[], rank?: number): Promise<number> | number;
  /**
   * A call reserved for `departure` is leaving now: resolves with `departure` when the slot still
   * holds, or with a new departure the gate booked instead (the call left too late for its slot; the
   * pump waits for the new one and asks again, `leadMs` being how long the last answer took). A gate
   * without it lets every call go at once.
   */
  confirm?(keys: readonly BudgetKey[], rank: number | undefined, departure: number, leadMs?: number): Promise<number> | number;
}
