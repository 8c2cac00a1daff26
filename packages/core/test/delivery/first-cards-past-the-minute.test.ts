/**
 * More runs start at once than a minute's create limit allows, and all run long. A first card
 * leaves one slot of the minute for each other card still waiting (their finals may need it), but
 * at most half the minute: first cards keep the other half, so runs past the limit still get their
 * cards minute by minute instead of one a minute. Fake time.
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

describe('first cards of more runs than a minute holds', () => {
  it('300 long runs starting together, 100 creates a minute: half a minute\'s creates go to first cards every minute', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = Object.assign(memoryChannel({ overrides: { budget: ROUTE, tickMs: 60_000 }, latencyMs: 30 }), {
      budgetKeys: (call: { kind: string }) => [{ key: call.kind === 'send' ? 'app:create' : 'app:patch', windows: ROUTE }],
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
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
