/**
 * How an app pool spreads chats (`appPool` `spread`): by default a chat without open cards goes to
 * the app with the fewest open cards, so apps carry even shares whatever the chats' names hash to; a
 * chat with open cards stays on their app; `'hash'` keeps each chat on its first app by rank.
 * In-memory apps, fake time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, memoryChannel, silentLogger, type MemoryChannel, type ProgressCard } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** Three in-memory apps in a pool, on fake time. */
function poolOf(spread?: 'least-loaded' | 'hash') {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const apps = [memoryChannel(), memoryChannel(), memoryChannel()];
  const pool = appPool(apps, spread ? { spread } : {});
  const cards = createProgressCards({ channels: [pool], logger: silentLogger, env: {} });
  return { apps, pool, cards };
}

/** Open cards per app id. */
function openPerApp(open: readonly ProgressCard[], appIds: readonly string[]): number[] {
  return appIds.map((id) => open.filter((card) => card.channelId === id).length);
}

/** Chats (of `oc_0`…) whose first app by rank is the pool's first app: hashing alone puts them all there. */
function chatsRankedFirstOn(pool: ReturnType<typeof appPool>, count: number): string[] {
  const chats: string[] = [];
  for (let i = 0; chats.length < count; i++) if (pool.rank(`oc_${i}`)[0]!.id === pool.apps[0]!.id) chats.push(`oc_${i}`);
  return chats;
}

describe('appPool spread', () => {
  it('least-loaded (default): chats that all hash to one app are spread evenly over the three apps', async () => {
    const { pool, cards } = poolOf();
    const chats = chatsRankedFirstOn(pool, 12);
    const open = chats.map((chat) => cards.open('memory', chat));
    for (const card of open) card.start({ title: 'run' });
    expect(openPerApp(open, pool.apps.map((app) => app.id))).toEqual([4, 4, 4]);
    await settle(5000);
    for (const card of open) card.complete('done');
    await settle(20_000);
    for (const card of open) expect(await card.finalDelivery).toMatchObject({ ok: true });
    await cards.shutdown();
  });

  it("'hash': the same chats all go to their first app by rank, whatever its load", async () => {
    const { pool, cards } = poolOf('hash');
    const open = chatsRankedFirstOn(pool, 6).map((chat) => cards.open('memory', chat));
    expect(openPerApp(open, pool.apps.map((app) => app.id))).toEqual([6, 0, 0]);
    for (const card of open) card.complete('done');
    await settle(20_000);
    await cards.shutdown();
  });

  it("a chat's next card goes to the app of its open cards even when that app is the busiest; once they closed, the chat goes where the load is least", async () => {
    const { apps, pool, cards } = poolOf();
    const ids = pool.apps.map((app) => app.id);
    const first = cards.open('memory', 'oc_team');
    const home = first.channelId;
    // Two more cards of the chat while the first is open: all on its app (3 open there, 0 elsewhere).
    const more = [cards.open('memory', 'oc_team'), cards.open('memory', 'oc_team')];
    expect(more.map((card) => card.channelId)).toEqual([home, home]);
    // A new chat goes to an app without cards.
    const other = cards.open('memory', 'oc_other');
    expect(other.channelId).not.toBe(home);
    for (const card of [first, ...more]) card.complete('done');
    await settle(20_000);
    // oc_team's cards closed: its next card goes to the least-loaded app (none open there), not back to
    // home by habit (home and the third app are both empty; oc_other's app is not chosen).
    const later = cards.open('memory', 'oc_team');
    expect(later.channelId).not.toBe(other.channelId);
    expect(openPerApp([other, later], ids).every((count) => count <= 1)).toBe(true);
    // Each card's messages went through the app it names.
    const messagesOn = (app: MemoryChannel) => [...app.messages.values()].filter((message) => message.target === 'oc_team').length;
    expect(messagesOn(apps[ids.indexOf(home)]!)).toBe(3);
    for (const card of [other, later]) card.complete('done');
    await settle(20_000);
    await cards.shutdown();
  });

  it('refuses a spread that is not least-loaded or hash, naming the value', () => {
    expect(() => appPool([memoryChannel()], { spread: 'round-robin' as never })).toThrow('appPool spread = "round-robin": expected "least-loaded" or "hash"');
  });
});
