/**
 * The floors count what a send route can carry: no design shows more new messages than its windows
 * allow, so the floor is the least p99 wait any design could reach.
 */
import { describe, expect, it } from 'vitest';
import { p99FloorMs } from '../src/floors.js';
import { gateOf } from '../src/gates.js';

describe('p99FloorMs', () => {
  it('is 0 when every message fits its windows at once', () => {
    expect(p99FloorMs([[0, 0, 0, 500, 900]], [{ limit: 10, intervalMs: 1000 }])).toBe(0);
  });

  it('300 messages due at once on a route of 100 a second: the 297th waits two seconds', () => {
    // 3 may wait longer than the p99 (300 − ⌈0.99 × 300⌉); the 297th goes in the third second.
    expect(Math.abs(p99FloorMs([Array.from({ length: 300 }, () => 0)], [{ limit: 100, intervalMs: 1000 }]) - 2000)).toBeLessThanOrEqual(1);
  });

  it('a long window spent by a burst holds the late messages until it slides (Feishu 50/s and 1 000/min)', () => {
    const windows = [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }];
    // 1 200 messages due over the first 20 s: 1 000 fit the first minute, the last 200 wait for it to slide.
    const due = Array.from({ length: 1200 }, (_, i) => Math.floor((i * 20_000) / 1200));
    const floor = p99FloorMs([due], windows);
    expect(floor).toBeGreaterThan(40_000);
    expect(floor).toBeLessThan(60_000);
  });

  it('counts each app on its own windows: two apps carry twice the load', () => {
    const windows = [{ limit: 100, intervalMs: 1000 }];
    const burst = Array.from({ length: 200 }, () => 0);
    expect(Math.abs(p99FloorMs([burst], windows) - 1000)).toBeLessThanOrEqual(1);
    expect(p99FloorMs([burst.slice(0, 100), burst.slice(100)], windows)).toBe(0);
  });
});

describe('Slack native streams (chat.startStream / chat.stopStream, Tier 2: 20 a minute per workspace)', () => {
  it('neither Slack mode has floors: a run over before its stream opened is posted per channel instead', () => {
    const clock = () => 0;
    expect(gateOf('slack-stream', clock).sendWindows).toBeUndefined();
    expect(gateOf('slack', clock).sendWindows).toBeUndefined();
  });

  it('a design streaming all of 500 cards starting over 10 s: the p99 card waits about 24 minutes for its stream', () => {
    const due = Array.from({ length: 500 }, (_, i) => Math.floor((i * 10_000) / 500));
    const floor = p99FloorMs([due], [{ limit: 20, intervalMs: 60_000 }]);
    // 495 cards must start; 20 a minute go, the 495th in minute 25 (from 24 × 60 s = 1 440 s on).
    expect(floor).toBeGreaterThan(1_420_000);
    expect(floor).toBeLessThanOrEqual(1_440_000);
  });
});
