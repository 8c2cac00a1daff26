import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const NO_UPDATE_SCOPE = { kind: 'missing-scope', scope: 'im:message:update', detail: 'HTTP 400 code 99991672: One of the following scopes is required: [im:message:update]' } as const;
const NO_SEND_SCOPE = { kind: 'missing-scope', scope: 'chat:write', detail: 'missing_scope' } as const;

function compose() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel = memoryChannel();
  const logger = recordingLogger({ levels: ['warn', 'error'] });
  const cards = createProgressCards({ channels: [channel], logger, env: {} });
  return { channel, cards, logger };
}

describe('a missing permission scope', () => {
  it('produces one error per channel, not one ladder per card: a refused update stops updates of every card, each final goes out as a fresh message', async () => {
    const { channel, cards, logger } = compose();
    channel.failNext({ op: 'update', failure: NO_UPDATE_SCOPE, times: 1000 });
    const runs = [1, 2, 3].map((n) => {
      const card = cards.open('memory');
      card.start({ title: `run ${n}` });
      return card;
    });
    await settle(1000);
    for (const card of runs) card.toolStarted('a', 'shell', { command: 'make' });
    await settle(20_000);
    for (const card of runs) card.toolStarted('b', 'shell', { command: 'make test' });
    await settle(20_000);
    for (const [i, card] of runs.entries()) card.complete(`answer ${i + 1}`);
    await settle(1000);

    for (const card of runs) expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    // One refused update in all (the first card to try); no card retried it, no other card tried it.
    expect(channel.calls.filter((call) => call.op === 'update')).toHaveLength(1);
    // Each card: its first send, then its final as a fresh message.
    expect(channel.calls.filter((call) => call.op === 'send' && call.failure === undefined)).toHaveLength(6);
    const answers = [...channel.messages.values()].map((message) => message.history.at(-1)!.answer).filter((answer) => answer !== '');
    expect(answers.sort()).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^error memory: the app lacks permission scope im:message:update: update stops for every card/);
  });

  it('a refused send ends each final at once with the scope named, and leaves the other operations alone', async () => {
    const { channel, cards, logger } = compose();
    const earlier = cards.open('memory');
    earlier.start({ title: 'sent before the scope was revoked' });
    await settle(1000);
    channel.failNext({ op: 'send', failure: NO_SEND_SCOPE, times: 1000 });
    const later = [1, 2].map((n) => {
      const card = cards.open('memory');
      card.start({ title: `run ${n}` });
      return card;
    });
    await settle(10_000);
    for (const card of later) card.complete('done');
    earlier.complete('earlier done');
    await settle(1000);

    for (const card of later) expect(await card.finalDelivery).toMatchObject({ ok: false, error: expect.stringMatching(/^memory lacks permission scope chat:write/) });
    // The card whose message exists still updates it.
    expect(await earlier.finalDelivery).toMatchObject({ ok: true, freshMessage: false });
    expect(channel.calls.filter((call) => call.failure === 'missing-scope')).toHaveLength(1);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/chat:write: send stops/);
  });

  it('a completion ping refused for a missing scope warns once; later cards send no ping, their cards still complete', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ switches: { completionPing: { afterMs: 1000 } } });
    const refusal = new Error('99991672');
    let replies = 0;
    const transport = {
      ...channel.transport,
      reply: async () => {
        replies += 1;
        throw refusal;
      },
      classify: (error: unknown) => (error === refusal ? ({ kind: 'missing-scope', scope: 'im:message:send_as_bot', detail: '99991672' } as const) : channel.transport.classify(error)),
    };
    const logger = recordingLogger({ levels: ['warn', 'error'] });
    const cards = createProgressCards({ channels: [{ ...channel, transport }], logger, env: {} });
    for (const n of [1, 2, 3]) {
      const card = cards.open('memory');
      card.start({ title: `run ${n}` });
      await settle(5000);
      card.complete(`answer ${n}`);
      await settle(5000);
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    }
    await cards.shutdown();
    expect(replies).toBe(1);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^warn memory: the app lacks permission scope im:message:send_as_bot for replies: no more completion pings/);
  });
});
