/**
 * A process that stops without ending its cards (kill -9, a crash) and the one started after it,
 * sharing one store: the new one resumes the run on the same message or, after the grace, ends it as
 * interrupted; a process whose card was taken over stops updating it. Fake time; "killing" a
 * composition clears every timer it set (its lease renewal, ticks and flushes stop, as in a dead process).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, InMemoryBudgetStore, InMemoryCardStore, memoryChannel, silentLogger, type MemoryChannel, type ProgressCardsStore } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const LEASE_MS = 3000;
const GRACE_MS = 10_000;

function world() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel: MemoryChannel = memoryChannel();
  const store: ProgressCardsStore = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
  const process = () => createProgressCards({ channels: [channel], store, logger: silentLogger, leaseTtlMs: LEASE_MS, orphanGraceMs: GRACE_MS });
  return { channel, store, process };
}

/** The first process runs a tool on a card for run-1, then dies without a word. */
async function killedMidRun(w: ReturnType<typeof world>) {
  const first = w.process();
  const card = first.open('memory', undefined, { runId: 'run-1', locale: 'en', title: 'Deploy' });
  card.toolStarted('c1', 'shell', { command: 'npm test' });
  const toolStartedAt = Date.now();
  await settle(2000);
  const message = card.message!;
  expect(message).toBeDefined();
  kill();
  return { message, toolStartedAt };
}

/** Ends every timer set so far (vitest's clearAllTimers also resets the fake clock: keep the time). */
function kill(): void {
  const now = Date.now();
  vi.clearAllTimers();
  vi.setSystemTime(now);
}

const lastShown = (channel: MemoryChannel, id: string) => channel.messages.get(id)!.history.at(-1)!;

describe('restart with a shared card store', () => {
  it('resume(runId) continues the same message; the tool timer runs from its original start', async () => {
    const w = world();
    const { message } = await killedMidRun(w);
    const second = w.process();
    const resuming = second.resume('run-1');
    // The dead owner's lease runs out first.
    await settle(LEASE_MS + 100);
    const card = await resuming;
    expect(card.runId).toBe('run-1');
    expect(card.message).toEqual(message);
    await settle(6000);
    // 2 s before the kill + 3.1 s for the lease + 6 s since: the line counts from the tool's first start.
    expect(lastShown(w.channel, message.id).tools[0]).toMatch(/running · 1[01]s/);
    card.toolFinished('c1', '212 passed');
    card.complete('All tests pass.');
    await settle(2000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(w.channel.messages.size).toBe(1);
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'completed', title: 'Deploy', answer: 'All tests pass.' });
    expect(await w.store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('a card nobody resumes is ended as interrupted once the grace after its lease passed', async () => {
    const w = world();
    const { message } = await killedMidRun(w);
    const second = w.process();
    await settle(LEASE_MS + GRACE_MS - 2000);
    expect(lastShown(w.channel, message.id).status).toBe('running');
    await settle(5000);
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'cancelled', error: 'interrupted by a restart' });
    expect(w.channel.messages.size).toBe(1);
    expect(await w.store.cards.list()).toEqual([]);
    await expect(second.resume('run-1')).rejects.toThrow('resume("run-1"): no open card of this run in the card store');
    await second.shutdown();
  });

  it('a Chinese card says 进程重启，任务已中断', async () => {
    const w = world();
    const first = w.process();
    first.open('memory', undefined, { runId: 'run-zh' }).start({ title: '部署' });
    await settle(1000);
    kill();
    w.process();
    await settle(LEASE_MS + GRACE_MS + 5000);
    const [message] = w.channel.messages.values();
    expect(message!.history.at(-1)).toMatchObject({ status: 'cancelled', error: '进程重启，任务已中断' });
  });

  it('a live process keeps its cards: another one can neither resume nor end them', async () => {
    const w = world();
    const first = w.process();
    const card = first.open('memory', undefined, { runId: 'run-live' });
    card.start();
    await settle(1000);
    const second = w.process();
    const resuming = second.resume('run-live');
    const outcome = expect(resuming).rejects.toThrow(/a live process holds the card/);
    await settle(LEASE_MS + GRACE_MS + 5000);
    await outcome;
    expect(card.status).toBe('running');
    expect(lastShown(w.channel, card.message!.id).status).toBe('running');
    card.complete('done');
    await settle(2000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await first.shutdown();
    await second.shutdown();
  });

  it('a process whose card was claimed by another stops updating it (fencing token)', async () => {
    const w = world();
    const first = w.process();
    const card = first.open('memory', undefined, { runId: 'run-fenced' });
    card.toolStarted('c1', 'shell', { command: 'sleep 100' });
    await settle(1000);
    const [stored] = await w.store.cards.list();
    // Another process claims it as if this one had stalled past its lease.
    const claimed = await w.store.cards.claim(stored!.cardId, 'other-process', Date.now() + 60_000, stored!.lease.expiresAt + 1);
    expect(claimed?.fencingToken).toBe(stored!.lease.fencingToken + 1);
    await settle(LEASE_MS);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, error: expect.stringContaining('lease lost') });
    const callsAfterLoss = w.channel.calls.length;
    card.toolFinished('c1', 'done');
    card.complete('answer');
    await settle(10_000);
    expect(w.channel.calls.length).toBe(callsAfterLoss);
    // Its stale write is refused: the store keeps the claimer's lease.
    expect((await w.store.cards.get(stored!.cardId))?.lease.owner).toBe('other-process');
    await first.shutdown();
  });

  it('a card the store lost (a Redis restarted empty) is stored again at the next renewal, so it can still be resumed', async () => {
    const w = world();
    const first = w.process();
    const card = first.open('memory', undefined, { runId: 'run-wiped' });
    card.toolStarted('c1', 'shell', { command: 'make' });
    await settle(500);
    const [stored] = await w.store.cards.list();
    await w.store.cards.delete(stored!.cardId, stored!.lease.fencingToken);
    expect(await w.store.cards.list()).toEqual([]);
    await settle(LEASE_MS / 3 + 10);
    expect((await w.store.cards.list()).map((again) => again.runId)).toEqual(['run-wiped']);
    kill();
    const second = w.process();
    const resuming = second.resume('run-wiped');
    await settle(LEASE_MS + 100);
    expect((await resuming).message).toEqual(card.message);
  });

  it('rejects a bad runId, lease or grace with the field named', () => {
    const w = world();
    const cards = w.process();
    expect(() => cards.open('memory', undefined, { runId: '' })).toThrow('runId = "": must be a non-empty string');
    expect(() => createProgressCards({ channels: [w.channel], leaseTtlMs: 0 })).toThrow('leaseTtlMs = 0: must be at least 1 ms');
    expect(() => createProgressCards({ channels: [w.channel], orphanGraceMs: -1 })).toThrow('orphanGraceMs = -1: must be at least 0 ms');
  });
});

describe('InMemoryCardStore leases', () => {
  const card = (fencingToken: number, expiresAt = 1000) => ({
    cardId: 'card-1', runId: 'run-1', channelId: 'memory', status: 'running' as const, phase: 'progressive' as const,
    idempotencyKey: 'card-1-0', continuations: [], title: '', locale: 'en' as const, startedAt: 0, tools: [],
    lease: { owner: 'a', expiresAt, fencingToken },
  });

  it('claims only an expired lease, raises the token, and refuses writes with the old one', async () => {
    const store = new InMemoryCardStore();
    expect(await store.put(card(1))).toBe(true);
    expect(await store.claim('card-1', 'b', 5000, 999)).toBeUndefined();
    const lease = await store.claim('card-1', 'b', 5000, 1000);
    expect(lease).toEqual({ owner: 'b', expiresAt: 5000, fencingToken: 2 });
    expect(await store.put(card(1))).toBe(false);
    expect(await store.delete('card-1', 1)).toBe(false);
    expect(await store.renew('a', [{ cardId: 'card-1', fencingToken: 1 }], 9000)).toEqual({ lost: ['card-1'], missing: [] });
    expect(await store.renew('b', [{ cardId: 'card-1', fencingToken: 2 }, { cardId: 'card-2', fencingToken: 1 }], 9000)).toEqual({ lost: [], missing: ['card-2'] });
    expect((await store.get('card-1'))?.lease).toEqual({ owner: 'b', expiresAt: 9000, fencingToken: 2 });
    expect(await store.delete('card-1', 2)).toBe(true);
    expect(await store.list()).toEqual([]);
  });
});
