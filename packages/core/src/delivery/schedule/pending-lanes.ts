/**
 * How many pending items wait in each lane (the budget their next call draws from first, see
 * `ReadyLanes`): an item is counted under the lane it was last filed in until it is dropped.
 * O(1) per change.
 */
export class PendingLanes<T> {
  private readonly laneOf = new Map<T, string>();
  private readonly counts = new Map<string, number>();

  /** Counts `item` under `lane` (moving it from the lane it was counted under). */
  file(item: T, lane: string): void {
    const before = this.laneOf.get(item);
    if (before === lane) return;
    if (before !== undefined) this.uncount(before);
    this.laneOf.set(item, lane);
    this.counts.set(lane, this.count(lane) + 1);
  }

  /** Stops counting `item` (its flushes are over). */
  drop(item: T): void {
    const lane = this.laneOf.get(item);
    if (lane === undefined) return;
    this.laneOf.delete(item);
    this.uncount(lane);
  }

  /** Pending items counted under `lane`. */
  count(lane: string): number {
    return this.counts.get(lane) ?? 0;
  }

  /** One item fewer under `lane`; a lane with none is forgotten (lanes may be per chat in a plugin's keys). */
  private uncount(lane: string): void {
    const left = this.count(lane) - 1;
    if (left > 0) this.counts.set(lane, left);
    else this.counts.delete(lane);
  }
}
