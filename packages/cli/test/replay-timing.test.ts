/**
 * The replay's timing on fake time, with the in-memory channel: card time follows the trace at the
 * chosen speed while ticks and the replay itself run on (fake) wall time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryChannel } from '@progresscard/core';
import { fakeTime } from '@progresscard/core/testing';
import { loadTrace, replayTickMs, replayTrace, type ReplayProgress } from '../src/index.js';
import { fixture } from './helpers.js';

afterEach(() => vi.useRealTimers());

describe('replay timing (fake time)', () => {
  it("takes the trace's span divided by the speed, and shows a running tool's duration tick by tick", async () => {
    // short-run: 15 s of trace; `npm test` runs from +1 s to +13 s of trace time.
    const trace = await loadTrace(fixture('short-run.events.jsonl'), 'short-run');
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const time = fakeTime(vi);
    const speed = 4;
    const channel = memoryChannel({ overrides: { tickMs: replayTickMs(speed) } });
    const replay = replayTrace({ trace, speed, channels: [channel] });
    await time.advance(30_000);
    const result = await replay;

    expect(result.cards.map((c) => [c.status, c.final?.ok])).toEqual([['completed', true]]);
    expect(result.wallMs).toBeGreaterThanOrEqual(15_000 / speed);
    expect(result.wallMs).toBeLessThan(15_000 / speed + replayTickMs(speed));
    // The card's run time is the trace's, not the wall time.
    expect(result.cards[0]!.view.elapsedMs).toBe(15_000);
    // Every accepted update while `npm test` ran: ~3 s of card time per tick, never ahead of the trace.
    const seen = channel.calls
      .filter((call) => !call.failure)
      .flatMap((call) => call.payload.tools.map((line) => /shell: `npm test`（执行中 · (\d+) 秒）/.exec(line)?.[1]))
      .filter((s): s is string => s !== undefined)
      .map(Number);
    // 12 s of running time at one tick per 3 s: at least 4 updates, none skipping a tick, none going back.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i]! - seen[i - 1]!).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]! - seen[i - 1]!).toBeLessThanOrEqual(3);
    expect(Math.max(...seen)).toBeLessThanOrEqual(12);
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(12 - 3);
  });

  it("reports a card's calls once its final settled, the final included", async () => {
    const trace = await loadTrace(fixture('short-run.events.jsonl'), 'short-run');
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const time = fakeTime(vi);
    const channel = memoryChannel({ overrides: { tickMs: replayTickMs(4) } });
    const seen: ReplayProgress['cards'][number][] = [];
    const replay = replayTrace({ trace, speed: 4, channels: [channel], onProgress: (progress) => void seen.push(...progress.cards) });
    await time.advance(30_000);
    const result = await replay;
    const final = result.cards[0]!.final!;
    expect(final.calls).toBeGreaterThan(0);
    // Before the final settled the card has no count; after, the count is every call, final included.
    expect(seen.filter((card) => !card.settled).every((card) => card.calls === undefined)).toBe(true);
    expect(seen.filter((card) => card.settled).map((card) => card.calls)).toContain(final.calls);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', settled: true, calls: final.calls });
  });
});
