/**
 * Several apps per channel (`appPool`): cards spread over the apps sticky per chat (with `spread: 'hash'`
 * in every process alike; the default least-loaded spread is app-pool-spread.test.ts); each app has its own budget; clicks from any app reach the card; a resumed card stays on its
 * app; an app whose credentials are refused gets no new chats and loses no card. In-memory apps
 * (5 calls/s each), fake time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appPool,
  createProgressCards,
  InMemoryBudgetStore,
  InMemoryCardStore,
  memoryChannel,
  silentLogger,
  type CallFailure,
  type ClickHandler,
  type MemoryChannel,
  type ProgressCardsStore,
} from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const chats = Array.from({ length: 30 }, (_, i) => `oc_chat${i}`);

/** Shuts compositions down, letting fake time run for their finals. */
async function shutDown(...compositions: { shutdown(): Promise<unknown> }[]): Promise<void> {
  const done = Promise.all(compositions.map((cards) => cards.shutdown()));
  await settle(20_000);
  await done;
}

/** The index of the app whose chat holds message-bearing calls for `chat`. */
function appOf(apps: readonly MemoryChannel[], chat: string): number {
  const holding = apps.map((app, index) => ([...app.messages.values()].some((message) => message.target === chat) ? index : -1)).filter((index) => index >= 0);
  expect(holding).toHaveLength(1);
  return holding[0]!;
}

describe('appPool', () => {
  it("spread 'hash': gives every card of a chat to one app, the same in two processes sharing a store, and spreads chats over the apps", async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store: ProgressCardsStore = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
    const process = () => {
      const apps = [memoryChannel(), memoryChannel(), memoryChannel()];
      const cards = createProgressCards({ channels: [appPool(apps, { spread: 'hash' })], store, logger: silentLogger, env: {} });
      return { apps, cards };
    };
    const a = process();
    const b = process();
    for (const chat of chats) {
      for (const { cards } of [a, b, a]) cards.open('memory', chat).start({ title: chat });
    }
    await settle(30_000);
    const picked = chats.map((chat) => appOf(a.apps, chat));
    expect(chats.map((chat) => appOf(b.apps, chat))).toEqual(picked);
    // Each app got some chats.
    expect(new Set(picked).size).toBe(3);
    // Every card of a chat in one process went through its one app: 2 messages there for each chat of `a`.
    for (const [i, chat] of chats.entries()) expect([...a.apps[picked[i]!]!.messages.values()].filter((m) => m.target === chat)).toHaveLength(2);
    await shutDown(a.cards, b.cards);
  });

  it('paces each app on its own budget: together past one app’s 5 a second, neither past its own, each shared by both processes', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store: ProgressCardsStore = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
    const apps = [memoryChannel(), memoryChannel()];
    // Two processes of the same two apps: app 1 of both shares one budget, as on the platform.
    const processes = [0, 1].map(() => createProgressCards({ channels: [appPool(apps)], store, logger: silentLogger, env: {} }));
    const t0 = Date.now();
    for (const [i, chat] of chats.entries()) processes[i % 2]!.open('memory', chat).start({ title: chat });
    await settle(3000);
    const perSecond = (app: MemoryChannel, from: number) => app.calls.filter((call) => call.at >= from && call.at < from + 1000).length;
    for (const app of apps) {
      for (let from = t0; from < t0 + 2000; from += 250) expect(perSecond(app, from)).toBeLessThanOrEqual(5);
      expect(perSecond(app, t0)).toBeGreaterThanOrEqual(4);
    }
    // Not one shared window: together they made more than one app's 5 in the first second.
    expect(perSecond(apps[0]!, t0) + perSecond(apps[1]!, t0)).toBeGreaterThan(5);
    await shutDown(...processes);
  });

  it('routes a click to its card whichever app received the callback', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const handlers: ClickHandler[] = [];
    const withCallbacks = () =>
      Object.assign(memoryChannel(), {
        interaction: { start: async (handler: ClickHandler) => void handlers.push(handler), stop: async () => undefined },
      });
    const cards = createProgressCards({ channels: [appPool([withCallbacks(), withCallbacks()])], logger: silentLogger, env: {} });
    const decisions = chats.slice(0, 4).map((chat) => {
      const card = cards.open('memory', chat, { locale: 'en' });
      card.start({ title: chat });
      return { card, decision: card.requestApproval({ prompt: 'Ship it?' }) };
    });
    await settle(1000);
    // Each app's callbacks started (the pool spreads 4 chats over both apps here).
    expect(handlers).toHaveLength(2);
    for (const [i, { card, decision }] of decisions.entries()) {
      const { cardId, pending } = card.view().controls!;
      const reply = await handlers[i % 2]!({ cardId, interactionId: pending!.id, optionId: 'approve', user: { id: 'ou_bob' }, deliveryId: `d${i}` });
      expect(reply).toMatchObject({ outcome: 'decided' });
      await expect(decision).resolves.toMatchObject({ approved: true });
    }
    await shutDown(cards);
  });

  it('resumes a card of a stopped process on the app that sent it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store: ProgressCardsStore = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
    const apps = [memoryChannel(), memoryChannel(), memoryChannel()];
    const process = () => createProgressCards({ channels: [appPool(apps)], store, logger: silentLogger, env: {}, leaseTtlMs: 3000, orphanGraceMs: 60_000 });
    const first = process();
    const card = first.open('memory', 'oc_chat7', { runId: 'run-7', locale: 'en' });
    card.start({ title: 'Deploy' });
    await settle(2000);
    const app = appOf(apps, 'oc_chat7');
    const message = card.message!;
    // The process dies: every timer it set stops.
    const now = Date.now();
    vi.clearAllTimers();
    vi.setSystemTime(now);
    expect((await store.cards.list())[0]).toMatchObject({ channelId: `memory-app${app + 1}` });

    const second = process();
    const resuming = second.resume('run-7');
    await settle(3100);
    const resumed = await resuming;
    resumed.complete('Deployed.');
    await settle(2000);
    expect(await resumed.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(apps[app]!.messages.get(message.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.' });
    expect(apps.reduce((sum, each) => sum + each.messages.size, 0)).toBe(1);
    await shutDown(second);
  });

  it('sends new chats of an app whose credentials are refused to the next app; its own cards wait and are delivered when they work again', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const apps = [memoryChannel(), memoryChannel()];
    let refusing = false;
    const refused: CallFailure = { kind: 'auth', detail: 'HTTP 400 code 10015: app secret rotated' };
    class Refused extends Error {}
    const cards = createProgressCards({ channels: [appPool(apps)], logger: silentLogger, env: {} });
    const card = cards.open('memory', 'oc_chat1', { locale: 'en' });
    card.start({ title: 'before' });
    await settle(1000);
    const home = appOf(apps, 'oc_chat1');
    // The home app's secret is rotated: every call (and token refresh) is refused for a minute.
    const transport = apps[home]!.transport;
    const { send, update } = transport;
    Object.assign(transport, {
      send: (request: Parameters<typeof send>[0]) => (refusing ? Promise.reject(new Refused()) : send.call(transport, request)),
      update: (request: Parameters<typeof update>[0]) => (refusing ? Promise.reject(new Refused()) : update.call(transport, request)),
      classify: (error: unknown) => (error instanceof Refused ? refused : { kind: 'transient', detail: String(error) }),
    });
    refusing = true;
    card.complete('first done');
    await settle(2000);
    // A new card of the same chat goes through the other app, at once.
    const next = cards.open('memory', 'oc_chat1', { locale: 'en' });
    next.start({ title: 'after' });
    next.complete('second done');
    await settle(2000);
    expect(await next.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect([...apps[1 - home]!.messages.values()].map((m) => m.history.at(-1)!.answer)).toEqual(['second done']);
    // The first card waits for its app's credentials, then its final is delivered on the same message.
    refusing = false;
    await settle(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    await shutDown(cards);
  });

  it('refuses an empty pool, apps of two channels, and a pool id given as a plugin too', () => {
    expect(() => appPool([])).toThrow('appPool needs at least one app');
    expect(() => appPool([memoryChannel(), memoryChannel({ id: 'other' })])).toThrow('"memory" and "other"');
    expect(() => createProgressCards({ channels: [appPool([memoryChannel()]), memoryChannel()], logger: silentLogger, env: {} })).toThrow('both as a plugin and as an app pool');
  });
});
