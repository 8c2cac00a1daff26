/**
 * A process killed while its card's final was being retried (the platform failing): the run's end
 * is in the card store, so the process taking the card over delivers the real answer (with the
 * tool calls that had finished) rather than ending it as interrupted. Fake time; "killing" a
 * composition clears every timer it set, as in restart.test.ts.
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

function kill(): void {
  const now = Date.now();
  vi.clearAllTimers();
  vi.setSystemTime(now);
}

const lastShown = (channel: MemoryChannel, id: string) => channel.messages.get(id)!.history.at(-1)!;

/** The first process shows a tool, the run completes, every try of the final fails, and the process dies mid-retries. */
async function killedDuringFinalRetries(w: ReturnType<typeof world>) {
  const first = w.process();
  const card = first.open('memory', undefined, { runId: 'run-1', locale: 'en', title: 'Deploy' });
  card.toolStarted('c1', 'shell', { command: 'npm test' });
  await settle(2000);
  const message = card.message!;
  w.channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 503' }, times: 3 });
  card.toolFinished('c1', '212 passed');
  card.complete('THE REAL ANSWER');
  await settle(1500);
  expect(w.channel.calls.filter((call) => call.failure === 'transient').length).toBeGreaterThan(0);
  expect(lastShown(w.channel, message.id).status).toBe('running');
  kill();
  return { message };
}

describe('a process killed during its final\'s retries', () => {
  it('the orphan sweep of the next process delivers the stored final, not "interrupted"', async () => {
    const w = world();
    const { message } = await killedDuringFinalRetries(w);
    const second = w.process();
    await settle(LEASE_MS + GRACE_MS + 5000);
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'completed', answer: 'THE REAL ANSWER' });
    expect(lastShown(w.channel, message.id).tools.join('\n')).toContain('212 passed');
    expect(w.channel.messages.size).toBe(1);
    expect(await w.store.cards.list()).toEqual([]);
    await second.shutdown();
  });

  it('resume(runId) of that run delivers its stored final', async () => {
    const w = world();
    const { message } = await killedDuringFinalRetries(w);
    const second = w.process();
    const resuming = second.resume('run-1');
    await settle(LEASE_MS + 100);
    const card = await resuming;
    await settle(2000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(lastShown(w.channel, message.id)).toMatchObject({ status: 'completed', answer: 'THE REAL ANSWER' });
    await second.shutdown();
  });
});
