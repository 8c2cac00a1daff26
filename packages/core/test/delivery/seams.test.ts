import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContainer, createProgressCards, InMemoryCardStore, memoryChannel, silentLogger, TOKENS } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('card store', () => {
  it('holds an open card’s message, idempotency key and status, and forgets the card once its final settled', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = new InMemoryCardStore();
    const parent = createContainer();
    parent.register(TOKENS.CardStore, { useValue: store });
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {}, parent });
    const card = cards.open('memory');
    card.toolStarted('c1', 'shell', '{"command":"ls"}');
    await settle(1000);
    const [open] = await store.list();
    expect(open).toMatchObject({ channelId: 'memory', status: 'running', phase: 'progressive', message: { id: 'm1' }, continuations: [] });
    expect(open!.idempotencyKey.startsWith(open!.cardId)).toBe(true);
    card.complete('done');
    await settle(5000);
    expect((await card.finalDelivery).ok).toBe(true);
    expect(await store.list()).toEqual([]);
  });
});

describe('final ladder from retry settings', () => {
  it('tries in place once plus once per delay, then on a fresh message the same, then reports undeliverable', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ overrides: { perCardIntervalMs: 0 } });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {}, retry: { finalRetryDelaysMs: [500] } });
    const card = cards.open('memory');
    card.start({ title: 'refused' });
    await settle(1000);
    channel.failNext({ failure: { kind: 'transient', detail: 'platform unreachable' }, times: 1000 });
    card.complete('done');
    await settle(300_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', attempts: 4 });
    const finalCalls = channel.calls.filter((call) => call.payload.status === 'completed' && call.payload.answer === 'done');
    expect(finalCalls.map((call) => call.op)).toEqual(['update', 'update', 'send', 'send']);
    // The fresh sends timed out, so the fresh message may exist: the first message is closed (tried
    // like a final, then through the outage probes' delays) rather than risk a second message showing
    // the final; those tries failing too, once more after its older calls can no longer land:
    // twice 1 + 1 final delay + 4 probe delays.
    const closes = channel.calls.filter((call) => call.payload.status === 'completed' && call.payload.answer !== 'done');
    expect(closes.map((call) => [call.op, call.messageId])).toEqual(Array(12).fill(['update', 'm1']));
  });
});
