/**
 * Pool [A, B, C] deployed as [A, C] while cards are stored: apps are named by position, so B's
 * stored id `memory-app2` now names C. Found by the breaker (B's card went to C, which kept trying
 * to edit B's message: "update failed" warnings, B's message stuck on running, no word of the move).
 * With the apps' `appIdentity` stored with each card, the identity decides: B's card goes on as a
 * fresh message through its chat's app, C's card stays on its message through C (now app 2).
 * Fake time, the in-memory card store shared by the "processes"; killing one clears its timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, memoryChannel, type MemoryChannel } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { chatOfApp, killedMidRun, processOptions as options, resumedAndCompleted, sharedStore } from './app-pool-restarts.js';

afterEach(() => vi.useRealTimers());

/** Runs run-1 on [A, B, C] in the chat of `appId`, kills it, resumes it on [A, C] and completes it. */
async function resumedOnTwo(appId: string) {
  const store = sharedStore();
  const [a, b, c] = ['app-a', 'app-b', 'app-c'].map((appIdentity) => memoryChannel({ appIdentity })) as [MemoryChannel, MemoryChannel, MemoryChannel];
  const message = await killedMidRun(store, [appPool([a, b, c])], chatOfApp([a, b, c], appId));
  const stored = (await store.cards.list())[0]!;
  const logger = recordingLogger();
  const second = createProgressCards({ channels: [appPool([a, c])], ...options(store, logger) });
  const final = await resumedAndCompleted(second, 10_000);
  await second.shutdown();
  return { a, b, c, message, stored, final, logger, left: await store.cards.list() };
}

describe('an app pool that lost a middle app: the stored app identity, not the position, decides', () => {
  it("B's card (stored as memory-app2, which is C now) goes on as a fresh message, and the log names the card, B and C", async () => {
    const { a, b, c, message, stored, final, logger, left } = await resumedOnTwo('memory-app2');
    expect(stored).toMatchObject({ channelId: 'memory-app2', appIdentity: 'app-b' });
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    // No app here may edit B's message: nobody tried (no call was refused), and it stays as it last was.
    expect([...a.calls, ...c.calls].filter((call) => call.failure !== undefined)).toEqual([]);
    expect([...a.calls, ...c.calls][0]?.op).toBe('send');
    expect(b.messages.get(message.id)!.history.at(-1)!.status).toBe('running');
    const fresh = [...a.messages.values(), ...c.messages.values()];
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.', title: 'Deploy' });
    const warnings = logger.entries.filter((entry) => entry.level === 'warn');
    expect(warnings.map((entry) => entry.message).join('\n')).not.toMatch(/update failed|pausing progressive updates/);
    const line = warnings.find((entry) => entry.fields?.card === stored.cardId);
    expect(line?.fields).toMatchObject({ storedChannel: 'memory-app2', storedApp: 'app-b' });
    expect(line?.message).toMatch(/"app-b"/);
    expect(line?.message).toMatch(/fresh message/);
    expect(left).toEqual([]);
  });

  it("C's card (stored as memory-app3) is finished on its own message through C, now memory-app2", async () => {
    const { a, c, message, stored, final, logger } = await resumedOnTwo('memory-app3');
    expect(stored).toMatchObject({ channelId: 'memory-app3', appIdentity: 'app-c' });
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(c.messages.get(message.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.' });
    expect(c.messages.size + a.messages.size).toBe(1);
    const line = logger.entries.find((entry) => entry.level === 'warn' && entry.fields?.card === stored.cardId);
    expect(line?.fields).toMatchObject({ storedChannel: 'memory-app3', channel: 'memory-app2', storedApp: 'app-c' });
  });
});
