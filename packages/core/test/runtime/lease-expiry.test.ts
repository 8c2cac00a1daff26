/**
 * A process cut off from its card store stops acting on its cards before their lease could have
 * expired in the store (where another process may claim them), and keeps going as before when the
 * store comes back in time. Fake time; the shared store is an InMemoryCardStore that can be made
 * unreachable for one process only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, InMemoryBudgetStore, InMemoryCardStore, memoryChannel, silentLogger, type CardStore, type MemoryChannel } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const LEASE_MS = 3000;

/** The shared store as one process sees it: every call fails while `down`. */
function reachableWhile(store: InMemoryCardStore, link: { down: boolean }): CardStore {
  const gate = <T>(call: () => Promise<T>) => (link.down ? Promise.reject(new Error('connection lost')) : call());
  return {
    put: (card) => gate(() => store.put(card)),
    get: (cardId) => gate(() => store.get(cardId)),
    list: () => gate(() => store.list()),
    delete: (cardId, token) => gate(() => store.delete(cardId, token)),
    claim: (cardId, owner, expiresAt, now) => gate(() => store.claim(cardId, owner, expiresAt, now)),
    renew: (owner, cards, expiresAt) => gate(() => store.renew(owner, cards, expiresAt)),
  } as CardStore;
}

function world() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel: MemoryChannel = memoryChannel();
  const shared = new InMemoryCardStore();
  const budgets = new InMemoryBudgetStore();
  const process = (link: { down: boolean }) =>
    createProgressCards({ channels: [channel], store: { budgets, cards: reachableWhile(shared, link) }, logger: silentLogger, leaseTtlMs: LEASE_MS, orphanGraceMs: 60_000 });
  return { channel, process };
}

const lastShown = (channel: MemoryChannel, id: string) => channel.messages.get(id)!.history.at(-1)!;

describe('a card whose lease may have expired while the store was unreachable', () => {
  it('stops updating before another process resumes it, and never overwrites that one\'s final', async () => {
    const w = world();
    const linkA = { down: false };
    const a = w.process(linkA);
    const card = a.open('memory', undefined, { runId: 'run-1', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'sleep 100' });
    await settle(1000);
    const message = card.message!;
    linkA.down = true;
    await settle(LEASE_MS + 500);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, error: expect.stringContaining('lease may have expired') });

    const b = w.process({ down: false });
    const resumed = await b.resume('run-1');
    resumed.toolFinished('c1', 'done');
    resumed.complete('RESUMED');
    expect(await resumed.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(lastShown(w.channel, message.id).status).toBe('completed');
    // A's ticks and its shutdown's interrupted final leave B's final alone.
    await settle(10_000);
    await a.shutdown();
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'completed' });
    await b.shutdown();
  });

  it('keeps going unchanged when the store comes back before the lease could expire', async () => {
    const w = world();
    const link = { down: false };
    const a = w.process(link);
    const card = a.open('memory', undefined, { runId: 'run-blip', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    await settle(1000);
    link.down = true;
    await settle(LEASE_MS / 2);
    link.down = false;
    await settle(LEASE_MS * 3);
    card.toolFinished('c1', 'ok');
    card.complete('done');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(lastShown(w.channel, card.message!.id).status).toBe('completed');
    await a.shutdown();
  });
});
