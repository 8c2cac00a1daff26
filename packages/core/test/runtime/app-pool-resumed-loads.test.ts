/**
 * Cards a process took over count in its app pool's loads like the cards it opened: a resumed card
 * keeps its chat on its app (a new card of that chat goes through the same bot), and the pool's
 * least-loaded spread sees it. In-memory apps over one card store, fake time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, memoryChannel } from '../../src/index.js';
import { settle } from '../helpers.js';
import { chatOfApp, killedMidRun, LEASE_MS, processOptions, sharedStore } from './app-pool-restarts.js';

afterEach(() => vi.useRealTimers());

describe('app pool loads after a takeover', () => {
  it("a new card of a resumed card's chat goes to the resumed card's app, and other chats spread around it", async () => {
    const store = sharedStore();
    const apps = [memoryChannel(), memoryChannel()];
    const chat = chatOfApp(apps, 'memory-app2');
    await killedMidRun(store, [appPool(apps, { spread: 'hash' })], chat);

    const second = createProgressCards({ channels: [appPool(apps)], ...processOptions(store) });
    const resuming = second.resume('run-1');
    await settle(LEASE_MS + 100);
    const resumed = await resuming;
    expect(resumed.channelId).toBe('memory-app2');

    // app2 carries the resumed card: a new chat goes to the emptier app1 (whatever its rank says).
    const neighbour = chatOfApp(apps, 'memory-app2', [chat]);
    const other = second.open('memory', neighbour, { runId: 'run-2' });
    expect(other.channelId).toBe('memory-app1');
    // The chat has an open card on app2: its next card goes there too, through the same bot.
    const next = second.open('memory', chat, { runId: 'run-3' });
    expect(next.channelId).toBe('memory-app2');

    for (const card of [resumed, other, next]) card.complete('done');
    await settle(20_000);
    for (const card of [resumed, other, next]) expect(await card.finalDelivery).toMatchObject({ ok: true });
    await second.shutdown();
  });
});
