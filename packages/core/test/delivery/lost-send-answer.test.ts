import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ChannelPlugin, type MemoryPayload, type MessageRef, type SendRequest } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/**
 * A send whose answer is lost (a timeout after the platform created the message) is retried with
 * the same idempotency key, and platforms de-duplicate such a retry by returning the first try's
 * message unchanged (Feishu `uuid`). That message holds the older state, so it must be updated.
 */
describe('a send whose answer was lost', () => {
  it('the final still reaches the one message instead of leaving it on the first, older state', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel();
    const byKey = new Map<string, MessageRef>();
    let lose = true;
    const send = async (request: SendRequest<MemoryPayload, string>): Promise<MessageRef> => {
      const known = byKey.get(request.idempotencyKey);
      if (known) return known; // de-duplicated: the first try's message, content unchanged
      const ref = await channel.transport.send(request);
      byKey.set(request.idempotencyKey, ref);
      if (lose) {
        lose = false;
        throw new Error('socket hang up'); // created, but the answer never arrived
      }
      return ref;
    };
    const plugin = { ...channel, transport: { ...channel.transport, send } } as ChannelPlugin;
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.toolStarted('t', 'shell', { command: 'make' });
    await settle(100);
    card.toolFinished('t', 'ok');
    card.complete('Finished.');
    await settle(30_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Finished.' });
  });
});
