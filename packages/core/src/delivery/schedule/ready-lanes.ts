import { PriorityQueue } from './priority-queue.js';

/** One lane: its ready entries, most urgent first, and the time before which its slot is known busy. */
export interface Lane<E> {
  readonly name: string;
  readonly heap: PriorityQueue<E>;
  /** Epoch ms before which the lane's budget has no slot (0: unknown, worth a try). */
  blockedUntil: number;
}

/**
 * Ready entries split by lane: the budget their next call draws from first (a channel's API route,
 * e.g. message create vs patch). Each lane waits for its own slot, so cards waiting for one route's
 * slot never hold back cards whose calls go to another route with room. Within a lane, entries come
 * out in `before` order. A lane found without a slot is not tried again before that slot, unless a
 * new entry becomes its most urgent one (a final may draw from keys the others do not).
 */
export class ReadyLanes<E> {
  private readonly lanes = new Map<string, Lane<E>>();

  constructor(
    private readonly before: (a: E, b: E) => boolean,
    /** True for an entry that no longer counts (it is dropped when met). */
    private readonly isStale: (entry: E) => boolean,
  ) {}

  /**
   * Files `entry` under `lane`. `fresh`: a new request, tried at once when it is the lane's most
   * urgent entry even while the lane waits for a slot.
   */
  push(lane: string, entry: E, fresh = false): void {
    let found = this.lanes.get(lane);
    if (!found) {
      found = { name: lane, heap: new PriorityQueue(this.before), blockedUntil: 0 };
      this.lanes.set(lane, found);
    }
    const top = this.topOf(found);
    if (fresh && (top === undefined || this.before(entry, top))) found.blockedUntil = 0;
    found.heap.push(entry);
  }

  /**
   * The lane to try next at `now`: of the lanes with entries and not known busy at `now`, the one
   * whose most urgent entry comes first. Undefined when there is none.
   */
  next(now: number): Lane<E> | undefined {
    let best: Lane<E> | undefined;
    let bestTop: E | undefined;
    for (const lane of this.lanes.values()) {
      const top = this.topOf(lane);
      if (top === undefined) {
        if (lane.blockedUntil <= now) this.lanes.delete(lane.name);
        continue;
      }
      if (lane.blockedUntil > now) continue;
      if (bestTop === undefined || this.before(top, bestTop)) {
        best = lane;
        bestTop = top;
      }
    }
    return best;
  }

  /**
   * The earliest slot of a lane that has entries; infinite when none has. A lane not known busy
   * gives its (past) time, so a caller that looked at another moment still wakes for it at once.
   */
  earliestSlot(): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const lane of this.lanes.values()) {
      if (lane.blockedUntil < earliest && this.topOf(lane) !== undefined) earliest = lane.blockedUntil;
    }
    return earliest;
  }

  /** The lane's most urgent live entry, dropping stale ones on top. */
  private topOf(lane: Lane<E>): E | undefined {
    let top = lane.heap.peek();
    while (top !== undefined && this.isStale(top)) {
      lane.heap.pop();
      top = lane.heap.peek();
    }
    return top;
  }
}
