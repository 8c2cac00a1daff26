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

/**
 * Orders what a conversion produced for output: holds items while no event time is known yet
 * (records before the first timestamp), then gives the held events that first time; applies the
 * gap cap. At the very end, held events get the current time.
 */
export class ItemQueue {
  private ready: TraceItem[] = [];
  private held: TraceItem[] = [];
  private timeKnown = false;
  private readonly cap: GapCap | undefined;

  constructor(maxGapMs: number | undefined) {
    this.cap = maxGapMs === undefined ? undefined : new GapCap(maxGapMs);
  }

  /** Adds one item. */
  push(item: TraceItem): void {
    if (!this.timeKnown) {
      if (item.kind === 'event' && item.event.at !== undefined) {
        this.timeKnown = true;
        this.release(item.event.at);
      } else {
        this.held.push(item);
        return;
      }
    }
    this.ready.push(this.capped(item));
  }

  /** Takes the items ready to go out. */
  take(): TraceItem[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** End of input: releases held items stamped with `now` (epoch ms) and takes everything. */
  end(now: number): TraceItem[] {
    if (!this.timeKnown && this.held.length > 0) this.release(now);
    return this.take();
  }

  private release(at: number): void {
    for (const item of this.held) {
      this.ready.push(this.capped(item.kind === 'event' && item.event.at === undefined ? { ...item, event: { ...item.event, at } as AgentEvent } : item));
    }
    this.held = [];
  }

  private capped(item: TraceItem): TraceItem {
    if (!this.cap || item.kind !== 'event' || item.event.at === undefined) return item;
    const at = this.cap.next(item.event.at);
    return at === item.event.at ? item : { ...item, event: { ...item.event, at } as AgentEvent };
  }
}
