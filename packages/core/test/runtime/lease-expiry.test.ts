/**
 * A process cut off from its card store stops acting on its cards before their lease could have
 * expired in the store (where another process may claim them), and waits: when the store answers
 * again, it delivers the cards nobody claimed (a one-process deployment loses no final to an
 * outage) and reports those another process took over. A process killed during the final's retries
 * leaves its final in the store, and the process taking the card over delivers it. Fake time; the
 * shared store is an InMemoryCardStore that can be made unreachable for one process only.
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
    // A makes no call since its lease ran out (its 3 s ticks included), and its final waits.
    const callsWhileCutOff = w.channel.calls.length;
    let settled = false;
    void card.finalDelivery.then(() => (settled = true));
    await settle(10_000);
    expect(w.channel.calls.length).toBe(callsWhileCutOff);
    expect(settled).toBe(false);

    const b = w.process({ down: false });
    const resumed = await b.resume('run-1');
    resumed.toolFinished('c1', 'done');
    resumed.complete('RESUMED');
    expect(await resumed.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(lastShown(w.channel, message.id).status).toBe('completed');
    // The store answers A again: B holds the card, so A reports it lost and sends nothing.
    linkA.down = false;
    await settle(LEASE_MS);
    expect(await card.finalDelivery).toMatchObject({ ok: false, error: expect.stringContaining('lease lost') });
    await a.shutdown();
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'completed', answer: 'RESUMED' });
    await b.shutdown();
  });

  it('delivers every final of a store outage many leases long once the store answers, and makes no call meanwhile', async () => {
    const w = world();
    const link = { down: false };
    const a = w.process(link);
    const cards = [0, 1, 2].map((index) => {
      const card = a.open('memory', undefined, { runId: `run-${index}`, locale: 'en' });
      card.toolStarted('c1', 'shell', { command: `build ${index}` });
      return card;
    });
    await settle(1000);
    expect(cards.every((card) => card.message !== undefined)).toBe(true);
    link.down = true;
    await settle(LEASE_MS);
    const callsAtExpiry = w.channel.calls.length;
    // The runs end during the outage (40 leases long).
    await settle(10 * LEASE_MS);
    for (const [index, card] of cards.entries()) {
      card.toolFinished('c1', 'ok');
      card.complete(`answer ${index}`);
    }
    await settle(30 * LEASE_MS);
    expect(w.channel.calls.length).toBe(callsAtExpiry);
    link.down = false;
    await settle(LEASE_MS);
    const finals = await Promise.all(cards.map((card) => card.finalDelivery));
    expect(finals.map((final) => [final.ok, final.status])).toEqual([[true, 'completed'], [true, 'completed'], [true, 'completed']]);
    for (const [index, card] of cards.entries()) expect(lastShown(w.channel, card.message!.id)).toMatchObject({ status: 'completed', answer: `answer ${index}` });
    await settle(LEASE_MS);
    expect(a.diagnostics().openCards).toBe(0);
    await a.shutdown();
  });

  it('a shutdown during the outage reports the waiting final as held back by the store', async () => {
    const w = world();
    const link = { down: false };
    const a = w.process(link);
    const card = a.open('memory', undefined, { runId: 'run-held', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    await settle(1000);
    link.down = true;
    await settle(2 * LEASE_MS);
    card.complete('done');
    const results = a.shutdown({ deadlineMs: 2000 });
    await settle(3000);
    expect(await results).toEqual([expect.objectContaining({ ok: false, error: expect.stringContaining('card store was unreachable') })]);
    expect(await card.finalDelivery).toMatchObject({ ok: false });
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
