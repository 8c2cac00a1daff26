import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, type DeliveryEvent } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

function compose(options: Parameters<typeof memoryChannel>[0] = {}) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel = memoryChannel(options);
  const logger = recordingLogger({ levels: ['warn', 'error'] });
  const cards = createProgressCards({ channels: [channel], logger, env: {} });
  return { channel, cards, logger };
}

describe("cards.on('delivery')", () => {
  it('reports every call with its card, kind, latency, result, failure kind, final flag and try', async () => {
    const { channel, cards } = compose({ latencyMs: 120 });
    const events: DeliveryEvent[] = [];
    cards.on('delivery', (event) => events.push(event));
    const card = cards.open('memory');
    card.start({ title: 'hooks' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 502' } });
    card.complete('done');
    await settle(10_000);
    expect((await card.finalDelivery).ok).toBe(true);

    expect(events).toEqual([
      { channel: 'memory', cardId: card.id, call: 'send', latencyMs: 120, result: 'ok', final: false, attempt: 1 },
      {
        channel: 'memory',
        cardId: card.id,
        call: 'update',
        latencyMs: 120,
        result: 'failed',
        failureKind: 'transient',
        failureDetail: 'HTTP 502',
        final: true,
        attempt: 1,
      },
      { channel: 'memory', cardId: card.id, call: 'update', latencyMs: 120, result: 'ok', final: true, attempt: 2 },
    ]);
    // The same calls the channel saw, in the same order.
    expect(events.map((event) => event.result === 'failed')).toEqual(channel.calls.map((call) => call.failure !== undefined));
  });

  it('reports continuation parts as their own calls', async () => {
    const { cards } = compose({ answerChunkChars: 20 });
    const events: DeliveryEvent[] = [];
    cards.on('delivery', (event) => events.push(event));
    const card = cards.open('memory');
    card.complete('a'.repeat(50));
    await settle(10_000);
    expect((await card.finalDelivery).continuations).toEqual({ delivered: 2, total: 2 });
    expect(events.map((event) => `${event.call}:${event.final}`)).toEqual(['send:true', 'continuation-send:true', 'continuation-send:true']);
  });

  it('a throwing listener is logged once and breaks neither delivery nor the other listeners; unsubscribe stops events', async () => {
    const { channel, cards, logger } = compose();
    const seen: string[] = [];
    cards.on('delivery', () => {
      throw new Error('metrics backend down');
    });
    const unsubscribe = cards.on('delivery', (event) => seen.push(event.call));
    const card = cards.open('memory');
    card.start({ title: 'one' });
    await settle(1000);
    card.toolStarted('a', 'shell', { command: 'make' });
    await settle(1000);
    unsubscribe();
    unsubscribe();
    card.complete('ok');
    await settle(5000);

    expect((await card.finalDelivery).ok).toBe(true);
    expect(channel.calls).toHaveLength(3);
    expect(seen).toEqual(['send', 'update']);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/delivery listener threw.*metrics backend down/);
  });

  it('refuses an unknown event name, naming it', () => {
    const { cards } = compose();
    expect(() => cards.on('deliveries' as 'delivery', () => undefined)).toThrow('unknown event "deliveries"');
  });
});
