import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const WRONG_SECRET = { kind: 'auth', detail: 'HTTP 400 code 10015: wrong app secret' } as const;

/** A memory channel whose transport can refresh credentials, as the Feishu and DingTalk ones can. */
function compose() {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel = memoryChannel();
  let refreshes = 0;
  const plugin = { ...channel, transport: { ...channel.transport, refreshAuth: async () => void refreshes++ } };
  const logger = recordingLogger({ levels: ['warn', 'error'] });
  const cards = createProgressCards({ channels: [plugin], logger, env: {} });
  return { channel, cards, logger, refreshes: () => refreshes };
}

describe('credentials refused again after a refresh (a wrong app secret)', () => {
  it('fails the final at once with one error naming the channel and the credentials, not after a backoff ladder', async () => {
    const { channel, cards, logger, refreshes } = compose();
    channel.failNext({ op: 'send', failure: WRONG_SECRET, times: 100 });
    const card = cards.open('memory');
    card.start({ title: 'run' });
    card.toolStarted('a', 'shell', { command: 'make' });
    await settle(1000);
    card.complete('done');
    // Well under the first backoff delay (1 s): nothing waits for a retry.
    await settle(100);
    const final = await Promise.race([card.finalDelivery, Promise.resolve(undefined)]);

    expect(final).toMatchObject({ ok: false, status: 'completed' });
    expect(final!.error).toMatch(/^memory credentials refused: .*wrong app secret/);
    expect(refreshes()).toBe(1);
    // the progressive send, its retry after the refresh, the final's one try
    expect(channel.calls.map((call) => call.failure)).toEqual(['auth', 'auth', 'auth']);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^error memory: credentials refused.*"channel":"memory"/);
  });

  it("stops every card's progressive updates; a later card's final gets one try, and a success lifts the stop", async () => {
    const { channel, cards, logger } = compose();
    channel.failNext({ op: 'send', failure: WRONG_SECRET, times: 3 });
    const first = cards.open('memory');
    first.start({ title: 'first' });
    await settle(1000);
    const second = cards.open('memory');
    second.start({ title: 'second' });
    second.toolStarted('a', 'shell', { command: 'make' });
    await settle(10_000);
    // first: send + retry after refresh; second: nothing progressive on a stopped channel
    expect(channel.calls).toHaveLength(2);

    second.complete('second done');
    await settle(100);
    expect(await second.finalDelivery).toMatchObject({ ok: false, error: expect.stringMatching(/credentials refused/) });
    expect(channel.calls).toHaveLength(3);

    // The secret was fixed (the platform accepts again): the next final goes through and lifts the stop.
    first.complete('first done');
    await settle(300); // one paced slot (210 ms at 5/s) after the second card's final
    expect(await first.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const third = cards.open('memory');
    third.start({ title: 'third' });
    await settle(1000);
    expect(channel.calls.at(-1)).toMatchObject({ op: 'send', failure: undefined });
    expect(logger.lines).toHaveLength(1);
  });

  it('an expired token (refused once, accepted after the refresh) is routine: no warning, no stop', async () => {
    const { channel, cards, logger, refreshes } = compose();
    channel.failNext({ op: 'send', failure: { kind: 'auth', detail: '99991663 token expired' } });
    const card = cards.open('memory');
    card.complete('ok');
    await settle(1000);
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    expect(refreshes()).toBe(1);
    expect(logger.lines).toEqual([]);
  });

  it('a token that expires again after another failure is refreshed again: the final is delivered, the channel not stopped', async () => {
    const { channel, cards, logger, refreshes } = compose();
    const expired = { kind: 'auth', detail: '99991663 token expired' } as const;
    channel.failNext({ op: 'send', failure: expired });
    channel.failNext({ op: 'send', failure: { kind: 'transient', detail: 'HTTP 502' } });
    channel.failNext({ op: 'send', failure: expired });
    const card = cards.open('memory');
    card.complete('answer after two expiries');
    await settle(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(refreshes()).toBe(2);
    // (then one more update: the send that timed out may have created the message with older content)
    expect(channel.calls.map((call) => call.failure).slice(0, 4)).toEqual(['auth', 'transient', 'auth', undefined]);
    expect(logger.lines.filter((line) => line.includes('credentials refused'))).toEqual([]);
  });
});
