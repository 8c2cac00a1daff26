/**
 * More runs start together than a minute's create limit allows. Every run needs one new message: its
 * first card, or its final when the run ends before a first card was sent. A first card leaves one
 * slot of the minute for each other card still waiting to send, so the runs that end meanwhile get
 * their finals at once, and the runs still going wait for the window to slide; but at most half the
 * minute, so first cards of runs that all run long still go minute by minute. Fake time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, InMemoryBudgetStore, memoryChannel, silentLogger } from '../../src/index.js';
import { maxCallsInWindow } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** One app's create and patch routes, each 10 calls a second and 100 a minute (Feishu's shape, a tenth of it). */
const ROUTE = [
  { limit: 10, intervalMs: 1000 },
  { limit: 100, intervalMs: 60_000 },
];

/** A composition over one in-memory app with {@link ROUTE} for sends and for updates, on fake time. */
function routeOf100AMinute() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel = Object.assign(memoryChannel({ overrides: { budget: ROUTE, tickMs: 60_000 }, latencyMs: 30 }), {
    budgetKeys: (call: { kind: string }) => [{ key: call.kind === 'send' ? 'app:create' : 'app:patch', windows: ROUTE }],
  });
  return { channel, cards: createProgressCards({ channels: [channel], logger: silentLogger, env: {} }) };
}

describe('a burst of runs past the minute on the create route', () => {
  it('200 runs starting within 10 s, 100 creates a minute: first cards while the minute has room, and every final within 1 s of its run\'s end', { timeout: 60_000 }, async () => {
    const { channel, cards } = routeOf100AMinute();
    const t0 = Date.now();
    // Run i starts at i × 50 ms and lasts 25–155 s (spread by a fixed stride): no minute holds more than 100 run ends.
    const runs = Array.from({ length: 200 }, (_, i) => ({ title: `run ${i}`, startAt: t0 + i * 50, endAt: t0 + i * 50 + 25_000 + ((i * 37) % 130) * 1000 }));
    const ended = new Map<string, number>();
    const open = new Map<string, ReturnType<typeof cards.open>>();
    for (let now = t0; now <= t0 + 170_000; now += 25) {
      for (const run of runs) {
        if (!open.has(run.title) && run.startAt <= now) {
          const card = cards.open('memory', undefined, { title: run.title, locale: 'en' });
          card.toolStarted('t', 'shell', { command: run.title });
          open.set(run.title, card);
        }
        if (!ended.has(run.title) && run.endAt <= now) {
          open.get(run.title)!.complete(`${run.title} done`);
          ended.set(run.title, Date.now());
        }
      }
      await vi.advanceTimersByTimeAsync(25);
    }
    await settle(120_000);
    const finalWaits = runs.map(({ title }) => {
      const call = channel.calls.find((made) => made.payload.title === title && made.payload.status === 'completed' && made.failure === undefined);
      return call ? call.at - ended.get(title)! : Number.POSITIVE_INFINITY;
    });
    // Some runs ended before their first card could be sent: their final was their first message.
    const finalFirst = runs.filter(({ title }) => channel.calls.filter((made) => made.op === 'send' && made.payload.title === title).every((made) => made.payload.status === 'completed'));
    expect(finalFirst.length).toBeGreaterThan(20);
    // The first runs got their first cards at the route's 10 a second (the minute had room for them).
    const firstCardAt = (title: string) => channel.calls.find((made) => made.op === 'send' && made.payload.title === title)!.at;
    for (const run of runs.slice(0, 30)) expect(firstCardAt(run.title) - run.startAt).toBeLessThan(3000);
    // Every final reached the chat within 1 s of its run's end (a first card never took the slot a
    // waiting card's final needed; before, 5 finals waited 7–10 s for the minute to slide); no window was exceeded.
    expect(Math.max(...finalWaits)).toBeLessThan(1000);
    for (const op of ['send', 'update'] as const) {
      const times = channel.calls.filter((made) => made.op === op).map((made) => made.at);
      expect(maxCallsInWindow(times, 1000)).toBeLessThanOrEqual(10);
      expect(maxCallsInWindow(times, 60_000)).toBeLessThanOrEqual(100);
    }
    await cards.shutdown();
  });

  it('300 long runs starting together, 100 creates a minute: half a minute\'s creates go to first cards every minute', { timeout: 60_000 }, async () => {
    const { channel, cards } = routeOf100AMinute();
    const open = Array.from({ length: 300 }, (_, i) => {
      const card = cards.open('memory', undefined, { title: `run ${i}`, locale: 'en' });
      card.toolStarted('t', 'shell', { command: `run ${i}` });
      return card;
    });
    const shown = () => new Set(channel.calls.filter((made) => made.op === 'send' && made.failure === undefined).map((made) => made.payload.title)).size;
    const perMinute: number[] = [];
    for (let minute = 0; minute < 5; minute++) {
      await settle(60_000);
      perMinute.push(shown());
    }
    // Before: 1 first card a minute (299 waiting left the first cards one slot of each minute).
    expect(perMinute[0]).toBeGreaterThanOrEqual(50);
    expect(perMinute[4]).toBeGreaterThanOrEqual(250);
    for (const card of open) card.complete('done');
    await settle(600_000);
    for (const card of open) expect(await card.finalDelivery).toMatchObject({ ok: true });
    const creates = channel.calls.filter((made) => made.op === 'send').map((made) => made.at);
    expect(maxCallsInWindow(creates, 60_000)).toBeLessThanOrEqual(100);
    await cards.shutdown();
  });

  it('a first card waits for the minute once the first cards took their half, however many wait', () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const at = 1_000_000;
    const route = { key: 'create', windows: ROUTE };
    for (let i = 0; i < 50; i++) store.reserve({ keys: [route], notBefore: at + i * 100, arrivalDelayMs: 0, rank: 'first-card' });
    const firstCard = (unsentCards: number) => store.nextDeparture({ keys: [route], notBefore: at + 6000, arrivalDelayMs: 0, rank: 'first-card', unsentCards });
    expect(firstCard(49)).toBeLessThan(at + 10_000);
    expect(firstCard(50)).toBeGreaterThan(at + 60_000);
    expect(firstCard(5000)).toBe(firstCard(50));
  });
});
