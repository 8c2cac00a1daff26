import type { AgentEvent } from '@progresscard/core';
import type { TraceItem } from './types.js';

/**
 * Shortens every gap between consecutive event times above `maxGapMs` to `maxGapMs`; every later
 * time moves back by what was cut. Times must not decrease (the converters guarantee it).
 */
export class GapCap {
  private shift = 0;
  private previous: number | undefined;

  constructor(private readonly maxGapMs: number) {}

  /** The capped time for the next event time `at` (epoch ms). */
  next(at: number): number {
    if (this.previous !== undefined && at - this.previous > this.maxGapMs) this.shift += at - this.previous - this.maxGapMs;
    this.previous = at;
    return at - this.shift;
  }
}

/** Most items held back while waiting for the first event time. */
const MAX_HELD_ITEMS = 1000;

/**
 * Orders what a conversion produced for output: holds items while no event time is known yet
 * (records before the first timestamp), then gives the held events that first time. Every event
 * that leaves has an `at` that never decreases (a missing one takes the last time), then the gap
 * cap applies. At the very end, or past {@link MAX_HELD_ITEMS}, held events get the current time.
 */
export class ItemQueue {
  private ready: TraceItem[] = [];
  private held: TraceItem[] = [];
  private last: number | undefined;
  private readonly cap: GapCap | undefined;

  constructor(maxGapMs: number | undefined) {
    this.cap = maxGapMs === undefined ? undefined : new GapCap(maxGapMs);
  }

  /** Adds one item. */
  push(item: TraceItem): void {
    if (this.last === undefined) {
      if (item.kind === 'event' && item.event.at !== undefined) {
        this.release(item.event.at);
      } else {
        this.held.push(item);
        // A trace with no timestamps at all must not pile up in memory: stamp with the time of reading.
        if (this.held.length >= MAX_HELD_ITEMS) this.release(Date.now());
        return;
      }
    }
    this.ready.push(this.stamped(item));
  }

  /** Takes the items ready to go out. */
  take(): TraceItem[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** End of input: releases held items stamped with `now` (epoch ms) and takes everything. */
  end(now: number): TraceItem[] {
    if (this.held.length > 0) this.release(now);
    return this.take();
  }

  private release(at: number): void {
    this.last ??= at;
    for (const item of this.held) this.ready.push(this.stamped(item));
    this.held = [];
  }

  private stamped(item: TraceItem): TraceItem {
    if (item.kind !== 'event') return item;
    const raw = Math.max(item.event.at ?? this.last!, this.last!);
    this.last = raw;
    const at = this.cap ? this.cap.next(raw) : raw;
    return at === item.event.at ? item : { ...item, event: { ...item.event, at } as AgentEvent };
  }
}
