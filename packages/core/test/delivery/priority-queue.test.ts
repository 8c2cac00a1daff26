import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriorityQueue } from '../../src/delivery/schedule/priority-queue.js';

type Entry = { rank: number; since: number; seq: number };
const before = (a: Entry, b: Entry) => a.rank < b.rank || (a.rank === b.rank && (a.since < b.since || (a.since === b.since && a.seq < b.seq)));
const order = (a: Entry, b: Entry) => (before(a, b) ? -1 : before(b, a) ? 1 : 0);

describe('PriorityQueue (the flush pump picks the next card with it in O(log n))', () => {
  it('hands out entries by rank, then age, whatever the order of pushes and interleaved pops', () => {
    const operation = fc.oneof(
      fc.record({ push: fc.record({ rank: fc.integer({ min: 0, max: 2 }), since: fc.integer({ min: 0, max: 50 }) }) }),
      fc.constant({ pop: true as const }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        const queue = new PriorityQueue(before);
        const model: Entry[] = [];
        let seq = 0;
        for (const op of operations) {
          if ('push' in op) {
            const entry = { ...op.push, seq: seq++ };
            queue.push(entry);
            model.push(entry);
          } else {
            model.sort(order);
            expect(queue.pop()).toEqual(model.shift());
          }
          expect(queue.size).toBe(model.length);
          expect(queue.peek()).toEqual([...model].sort(order)[0]);
        }
        model.sort(order);
        const drained: Entry[] = [];
        for (let entry = queue.pop(); entry; entry = queue.pop()) drained.push(entry);
        expect(drained).toEqual(model);
      }),
    );
  });

  it('an empty queue pops and peeks undefined', () => {
    const queue = new PriorityQueue<number>((a, b) => a < b);
    expect(queue.pop()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
    queue.push(3);
    expect(queue.pop()).toBe(3);
    expect(queue.pop()).toBeUndefined();
  });

  it('pushing and popping 1 000 entries takes logarithmic comparisons each, not a scan (100 000 entries: npm run bench:core)', () => {
    let comparisons = 0;
    const queue = new PriorityQueue<number>((a, b) => {
      comparisons++;
      return a < b;
    });
    const n = 1000;
    for (let i = 0; i < n; i++) queue.push((i * 7919) % n);
    const popped = Array.from({ length: n }, () => queue.pop());
    expect(popped).toEqual(Array.from({ length: n }, (_, i) => i));
    // A scan would need n²/2 = 500 000 comparisons; a heap needs about 3 n log₂ n ≈ 30 000.
    expect(comparisons).toBeLessThan(3 * n * Math.log2(n));
  });
});
