/**
 * The bench's instruments measure what they claim: the p-throttle design's budget never lets more
 * than a window's limit through (it delays, never drops, and honours a pause), and the honest bound
 * counts only cards with a real change not shown yet (a shown change, or thinking text the tracker
 * does not follow, leaves the count).
 */
import { CardState, type CardRenderer } from '@progresscard/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PThrottleBudgetStore } from '../src/p-throttle-store.js';
import { StalenessTracker } from '../src/tracker.js';

describe('the p-throttle budget store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('lets no more than each window allows through, delaying the rest', async () => {
    const store = new PThrottleBudgetStore();
    const keys = [{ key: 'app:patch', windows: [{ limit: 5, intervalMs: 1000 }, { limit: 12, intervalMs: 10_000 }] }];
    const departures: number[] = [];
    for (let i = 0; i < 20; i++) void store.reserve({ keys, notBefore: Date.now(), arrivalDelayMs: 0 }).then((at) => departures.push(at));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(departures).toHaveLength(20);
    const within = (start: number, span: number) => departures.filter((at) => at >= start && at < start + span).length;
    for (const at of departures) {
      expect(within(at, 1000)).toBeLessThanOrEqual(5);
      expect(within(at, 10_000)).toBeLessThanOrEqual(12);
    }
    expect(Math.max(...departures) - Math.min(...departures)).toBeGreaterThanOrEqual(10_000);
  });

  it('gives no departure before a pause ends', async () => {
    const store = new PThrottleBudgetStore();
    const keys = [{ key: 'app:send', windows: [{ limit: 50, intervalMs: 1000 }] }];
    const pauseEnd = Date.now() + 3000;
    await store.pauseUntil('app:send', pauseEnd);
    expect(store.nextDeparture({ keys, notBefore: Date.now(), arrivalDelayMs: 0 })).toBe(pauseEnd);
    const departure = store.reserve({ keys, notBefore: Date.now(), arrivalDelayMs: 0 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await departure).toBeGreaterThanOrEqual(pauseEnd);
  });
});

describe('the staleness tracker', () => {
  const plain: CardRenderer<object> = { render: () => ({}), renderFallback: () => ({}) };

  it('counts a card while it has a change the chat does not show, and not after', () => {
    const tracker = new StalenessTracker(2);
    const renderer = tracker.wrap(plain);
    const state = new CardState({ startedAt: 0 });
    state.apply({ type: 'run.started', title: 'one' }, 0);
    tracker.pushed(0, { type: 'run.started', title: 'one' }, 0);
    expect(tracker.cardsWithUnshownChange).toBe(1);
    tracker.accepted(0, renderer.render(state.view(10)), 10);
    expect(tracker.cardsWithUnshownChange).toBe(0);

    // Thinking is not a change the tracker follows; a tool start is, until a payload shows it.
    tracker.pushed(0, { type: 'thinking.delta', text: 'hm' }, 20);
    expect(tracker.cardsWithUnshownChange).toBe(0);
    const tool = { type: 'tool.started', callId: 'c1', name: 'shell' } as const;
    state.apply(tool, 30);
    tracker.pushed(0, tool, 30);
    expect(tracker.cardsWithUnshownChange).toBe(1);
    expect(tracker.unshownAtEvents).toEqual([1, 0, 1]);
    tracker.accepted(0, renderer.render(state.view(100)), 100);
    expect(tracker.cardsWithUnshownChange).toBe(0);
    expect(tracker.tool).toEqual([70]);
  });
});

describe('the staleness tracker over several apps', () => {
  const plain: CardRenderer<object> = { render: () => ({}), renderFallback: () => ({}) };

  it("counts a change against its own app's unshown cards, not every app's", () => {
    const tracker = new StalenessTracker(3);
    tracker.placeOnApps(2);
    for (const [run, app] of [0, 0, 1].entries()) tracker.placeRun(run, app);
    tracker.pushed(0, { type: 'run.started', title: 'a' }, 0);
    tracker.pushed(1, { type: 'run.started', title: 'b' }, 0);
    // Run 2 is on app 1, where no other card waits: it competes with itself only.
    tracker.pushed(2, { type: 'run.started', title: 'c' }, 0);
    expect(tracker.unshownAtEvents).toEqual([1, 2, 3]);
    expect(tracker.unshownOnAppAtEvents).toEqual([1, 2, 1]);
  });

  it('tells tool changes of cards the chat showed from those waiting for their first card', () => {
    const tracker = new StalenessTracker(1);
    const renderer = tracker.wrap(plain);
    const state = new CardState({ startedAt: 0 });
    const push = (event: Parameters<CardState['apply']>[0], at: number) => {
      state.apply(event, at);
      tracker.pushed(0, event, at);
    };
    push({ type: 'run.started', title: 'one' }, 0);
    // A tool starts before the first card shows: it waits for the card's first message.
    push({ type: 'tool.started', callId: 'c1', name: 'shell' }, 10);
    tracker.accepted(0, renderer.render(state.view(500)), 500);
    push({ type: 'tool.finished', callId: 'c1' }, 600);
    tracker.accepted(0, renderer.render(state.view(650)), 650);
    expect(tracker.tool).toEqual([490, 50]);
    expect(tracker.toolOnShownCard).toEqual([50]);
  });
});
