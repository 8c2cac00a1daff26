/**
 * A deployment that moves a channel from one app to an app pool (or drops an app from its pool)
 * while cards are stored under the old app id: a card resumed, or swept after its owner died, is
 * delivered through the app that holds its chat now, never left spinning under an app id nobody
 * registers (issue 30: "unknown channel" and a card that spun for ever). Fake time, the in-memory
 * card store shared by the "processes"; killing one clears every timer it set.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, memoryChannel, type MemoryChannel } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { chatOfApp, GRACE_MS, killedMidRun, LEASE_MS, processOptions as options, resumedAndCompleted, sharedStore } from './app-pool-restarts.js';

afterEach(() => vi.useRealTimers());

describe('moving a deployment to an app pool strands no running card', () => {
  it('one app → a pool listing it first: resume continues the same message through the pool\'s first app, and says so', async () => {
    const store = sharedStore();
    const alone: MemoryChannel = memoryChannel();
    const message = await killedMidRun(store, [alone]);
    const added = memoryChannel();
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([alone, added])], ...options(store, logger) });
    expect(await resumedAndCompleted(second)).toMatchObject({ ok: true, status: 'completed' });
    expect(alone.messages.get(message.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.' });
    expect(alone.messages.size + added.messages.size).toBe(1);
    const line = logger.entries.find((entry) => entry.message.includes('memory-app1'));
    expect(line).toMatchObject({ level: 'warn', fields: expect.objectContaining({ card: expect.any(String), storedChannel: 'memory', channel: 'memory-app1' }) });
    expect(await store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('one app → a pool: a card nobody resumes is ended as interrupted on its message by the sweep', async () => {
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
    const store = sharedStore();
    const apps = [memoryChannel(), memoryChannel()];
    const message = await killedMidRun(store, [appPool(apps)], chatOfApp(apps, 'memory-app2'));
    const stored = (await store.cards.list())[0]!;
    expect(stored.channelId).toBe('memory-app2');
    const [kept, dropped] = apps as [MemoryChannel, MemoryChannel];
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([kept])], ...options(store, logger) });
    expect(await resumedAndCompleted(second)).toMatchObject({ ok: true, status: 'completed' });
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
    const store = sharedStore();
    const apps = [memoryChannel(), memoryChannel()];
    await killedMidRun(store, [appPool(apps)], chatOfApp(apps, 'memory-app2'));
    const stored = (await store.cards.list())[0]!;
    const logger = recordingLogger();
    const second = createProgressCards({ channels: [appPool([apps[0]!])], ...options(store, logger) });
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(await store.cards.list()).toEqual([]);
    expect(logger.entries.some((entry) => entry.level === 'warn' && entry.message.includes(stored.channelId) && entry.fields?.card === stored.cardId)).toBe(true);
    await second.shutdown();
  });

  it('a card of a channel no configured app can take stays for the process that has it, and resume says why', async () => {
    const store = sharedStore();
    await killedMidRun(store, [memoryChannel()]);
    const second = createProgressCards({ channels: [memoryChannel({ id: 'other' })], ...options(store) });
    await expect(second.resume('run-1')).rejects.toThrow(/stored by channel "memory".*registered: other/);
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(await store.cards.list()).toHaveLength(1);
    await second.shutdown();
  });
});
