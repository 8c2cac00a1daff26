import type { Clock } from '../../shared/clock.js';
import type { BudgetKey } from '../../plugin/contract.js';
import { answerPending, type BookedSlot, type FlushGate } from './flush-calls.js';

/**
 * Calls booked to leave at a time: each waits for its departure, then asks the gate whether its slot
 * still holds ({@link FlushGate.confirm}: a call that leaves too late for its slot — an event-loop
 * stall, a slow store answer — waits for a new one) and leaves. Business-free: `leave` sends.
 */
export class Departures {
  /** Timers of non-urgent departures (unref'd unless the pump is awaited: {@link keepAlive}). */
  private readonly timers = new Set<NodeJS.Timeout>();
  private keepingAlive = false;

  constructor(
    private readonly gate: FlushGate,
    private readonly clock: Clock,
  ) {}

  /** From now on every departure timer keeps the process alive (someone awaits the pump), or no longer does. */
  keepAlive(on: boolean): void {
    this.keepingAlive = on;
    if (on) for (const timer of this.timers) timer.ref();
  }

  /**
   * The call under `keys` leaves at its `slot`'s departure (now when it is due), once the slot is
   * confirmed: `leave(waited)` then runs once; `waited` is true when the call left after a timer or
   * an asynchronous confirmation (the pump then goes round again). Rank 0 (terminal) timers always
   * keep the process alive.
   */
  leaveAt(keys: readonly BudgetKey[], rank: number, slot: BookedSlot, leave: (waited: boolean) => void, waited = false, leadMs = 0): void {
    const wait = slot.departure - this.clock.now();
    if (wait < 1) {
      this.confirm(keys, rank, slot, leave, waited, leadMs);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.confirm(keys, rank, slot, leave, true, leadMs);
    }, wait);
    if (rank !== 0) {
      this.timers.add(timer);
      if (!this.keepingAlive) timer.unref();
    }
  }

  /** Asks the gate whether `slot` still holds; the call leaves, or waits for the new slot. */
  private confirm(keys: readonly BudgetKey[], rank: number, slot: BookedSlot, leave: (waited: boolean) => void, waited: boolean, leadMs: number): void {
    const asked = this.clock.now();
    let answer: PromiseLike<BookedSlot> | BookedSlot;
    try {
      answer = this.gate.confirm?.(keys, rank, slot, leadMs) ?? slot;
    } catch {
      answer = slot;
    }
    const settle = (next: BookedSlot): void => {
      const async = waited || answerPending(answer);
      if (next !== slot) this.leaveAt(keys, rank, next, leave, async, this.clock.now() - asked);
      else leave(async);
    };
    // The store failed to re-book: the call keeps the slot it has (never a call without one).
    if (answerPending(answer)) void Promise.resolve(answer).then(settle, () => settle(slot));
    else settle(answer);
  }
}
