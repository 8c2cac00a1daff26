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

/** A slot a {@link FlushGate} booked for one call. */
export interface BookedSlot {
  /** Epoch ms the call may leave at. */
  readonly departure: number;
  /**
   * Epoch ms the budget store counted the call at: its departure plus the arrival delay estimated
   * when it was booked (the estimate may have moved since). A re-booking uncounts exactly this.
   */
  readonly arrival: number;
}

/** True when a gate's answer is still to come (a promise), false when it is the slot itself. */
export function answerPending<T extends object>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as Partial<PromiseLike<T>>).then === 'function';
}

/** The budgets every call passes. */
export interface FlushGate {
  /** Epoch ms a call under `keys` of flush rank `rank` could leave at, without reserving it. */
  nextDeparture(keys: readonly BudgetKey[], rank?: number): Promise<number> | number;
  /** Reserves a slot under `keys` for a call of flush rank `rank`; resolves with it. */
  reserve(keys: readonly BudgetKey[], rank?: number): Promise<BookedSlot> | BookedSlot;
  /**
   * A call booked `slot` is leaving now: resolves with `slot` itself when it still holds, or with a
   * new slot the gate booked in its place (the call left too late for it; the pump waits for the new
   * one and asks again, `leadMs` being how long the last answer took). A gate without it lets every
   * call go at once.
   */
  confirm?(keys: readonly BudgetKey[], rank: number | undefined, slot: BookedSlot, leadMs?: number): Promise<BookedSlot> | BookedSlot;
}
