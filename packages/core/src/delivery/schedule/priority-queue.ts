/**
 * A binary min-heap: `push` and `pop` in O(log n), `peek` in O(1). `before(a, b)` is true when `a`
 * must come out before `b`; it must be a strict weak order (ties come out in no particular order,
 * so callers that need a stable order add a sequence number to their key).
 */
export class PriorityQueue<T> {
  private readonly heap: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  /** Number of entries. */
  get size(): number {
    return this.heap.length;
  }

  /** The first entry without removing it; undefined when empty. */
  peek(): T | undefined {
    return this.heap[0];
  }

  /** Adds `value`. */
  push(value: T): void {
    const heap = this.heap;
    heap.push(value);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(value, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = value;
  }

  /** Removes and returns the first entry; undefined when empty. */
  pop(): T | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    let index = 0;
    const length = heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[child]!, last)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}
