/**
 * A deployment that moves a channel from one app to an app pool (or drops an app from its pool)
 * while cards are stored under the old app id: a card resumed, or swept after its owner died, is
 * delivered through the app that holds its chat now, never left spinning under an app id nobody
 * registers (issue 30: "unknown channel" and a card that spun for ever). Fake time, the in-memory
 * card store shared by the "processes"; killing one clears every timer it set.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, InMemoryBudgetStore, InMemoryCardStore, memoryChannel, type MemoryChannel, type ProgressCardsStore } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const LEASE_MS = 3000;
const GRACE_MS = 10_000;

function kill(): void {
  const now = Date.now();
  vi.clearAllTimers();
  vi.setSystemTime(now);
}

function sharedStore(): ProgressCardsStore {
  return { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
}

const options = (store: ProgressCardsStore, logger = recordingLogger()) => ({ store, logger, env: {}, leaseTtlMs: LEASE_MS, orphanGraceMs: GRACE_MS });

/** A chat the two-app pool of `apps` gives to its second app (`memory-app2`, the one a later deploy drops). */
function chatOfSecondApp(apps: readonly MemoryChannel[]): string {
  const pool = appPool(apps);
  const chat = ['oc_1', 'oc_2', 'oc_3', 'oc_4', 'oc_5', 'oc_6', 'oc_7', 'oc_8'].find((each) => pool.rank(each)[0]!.id === 'memory-app2');
  if (!chat) throw new Error('no chat of the eight goes to memory-app2');
  return chat;
}

/** A first process on `channels` opens run-1 in `chat`, runs a tool, and dies. */
async function killedMidRun(store: ProgressCardsStore, channels: Parameters<typeof createProgressCards>[0]['channels'], chat = 'oc_1') {
  const first = createProgressCards({ channels, ...options(store) });
  const card = first.open('memory', chat, { runId: 'run-1', locale: 'en', title: 'Deploy' });
  card.toolStarted('c1', 'shell', { command: 'make' });
  await settle(2000);
  const message = card.message!;
  expect(message).toBeDefined();
  kill();
  return message;
}

describe('moving a deployment to an app pool strands no running card', () => {
  it('one app → a pool listing it first: resume continues the same message through the pool\'s first app, and says so', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = sharedStore();
    const alone: MemoryChannel = memoryChannel();
    const message = await killedMidRun(store, [alone]);
    const added = memoryChannel();
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([alone, added])], ...options(store, logger) });
    const resuming = second.resume('run-1');
    await settle(LEASE_MS + 100);
    const card = await resuming;
    card.toolFinished('c1', 'built');
    card.complete('Deployed.');
    await settle(5000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(alone.messages.get(message.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.' });
    expect(alone.messages.size + added.messages.size).toBe(1);
    const line = logger.entries.find((entry) => entry.message.includes('memory-app1'));
    expect(line).toMatchObject({ level: 'warn', fields: expect.objectContaining({ card: expect.any(String), storedChannel: 'memory', channel: 'memory-app1' }) });
    expect(await store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('one app → a pool: a card nobody resumes is ended as interrupted on its message by the sweep', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = sharedStore();
    const alone: MemoryChannel = memoryChannel();
    const message = await killedMidRun(store, [alone]);
    const second = createProgressCards({ channels: [appPool([alone, memoryChannel()])], ...options(store) });
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(alone.messages.get(message.id)!.history.at(-1)).toMatchObject({ status: 'cancelled', error: 'interrupted by a restart' });
    expect(await store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('an app dropped from the pool: the resumed card goes on as a fresh message through the chat\'s app now, and the log names the card, the old app and the fix', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = sharedStore();
    const apps = [memoryChannel(), memoryChannel()];
    const message = await killedMidRun(store, [appPool(apps)], chatOfSecondApp(apps));
    const stored = (await store.cards.list())[0]!;
    expect(stored.channelId).toBe('memory-app2');
    const [kept, dropped] = apps as [MemoryChannel, MemoryChannel];
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([kept])], ...options(store, logger) });
    const resuming = second.resume('run-1');
    await settle(LEASE_MS + 100);
    const card = await resuming;
    card.toolFinished('c1', 'built');
    card.complete('Deployed.');
    await settle(5000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // The old app's message is out of reach (no app of this process may edit it); the fresh one holds the final.
    expect(dropped.messages.get(message.id)!.history.at(-1)!.status).toBe('running');
    const fresh = [...kept.messages.values()];
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.', title: 'Deploy' });
    const line = logger.entries.find((entry) => entry.level === 'warn' && entry.message.includes(stored.channelId));
    expect(line?.fields).toMatchObject({ card: stored.cardId, storedChannel: stored.channelId, channel: 'memory-app1' });
    expect(line?.message).toMatch(/keep the app/);
    expect(await store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('an app dropped from the pool: a card nobody resumes is not left in the store for ever (ended, with the log line)', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = sharedStore();
    const apps = [memoryChannel(), memoryChannel()];
    await killedMidRun(store, [appPool(apps)], chatOfSecondApp(apps));
    const stored = (await store.cards.list())[0]!;
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([apps[0]!])], ...options(store, logger) });
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(await store.cards.list()).toEqual([]);
    expect(logger.entries.some((entry) => entry.level === 'warn' && entry.message.includes(stored.channelId) && entry.fields?.card === stored.cardId)).toBe(true);
    await second.shutdown();
  });

  it('a card of a channel no configured app can take stays for the process that has it, and resume says why', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = sharedStore();
    await killedMidRun(store, [memoryChannel()]);
    const second = createProgressCards({ channels: [memoryChannel({ id: 'other' })], ...options(store) });
    await expect(second.resume('run-1')).rejects.toThrow(/stored by channel "memory".*registered: other/);
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(await store.cards.list()).toHaveLength(1);
    await second.shutdown();
  });
});
