import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, type CallFailure } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

class Refused extends Error {
  readonly failure: CallFailure = { kind: 'auth', detail: 'HTTP 400 code 10015: app secret rotated' };
}

/**
 * A platform that accepts the app's credentials, then refuses them (and every token fetched with
 * them) from `refuseFrom` for `windowMs`, as while a rotated app secret reaches the process.
 */
function rotatingSecretPlatform(refuseFrom: number, windowMs: number) {
  const channel = memoryChannel();
  const refused = () => Date.now() >= refuseFrom && Date.now() < refuseFrom + windowMs;
  let refreshes = 0;
  let refusedCalls = 0;
  const guard = <T>(call: () => Promise<T>): Promise<T> => {
    if (!refused()) return call();
    refusedCalls += 1;
    return Promise.reject(new Refused());
  };
  const plugin = {
    ...channel,
    transport: {
      ...channel.transport,
      send: (request: Parameters<typeof channel.transport.send>[0]) => guard(() => channel.transport.send(request)),
      update: (request: Parameters<typeof channel.transport.update>[0]) => guard(() => channel.transport.update(request)),
      classify: (error: unknown) => (error instanceof Refused ? error.failure : channel.transport.classify(error)),
      refreshAuth: async () => void refreshes++,
    },
  };
  return { channel, plugin, refreshes: () => refreshes, refusedCalls: () => refusedCalls };
}

describe('credentials refused for a window after they had worked (a rotated secret)', () => {
  it('cards wait while the channel probes with backoff, and every final is delivered once the credentials work again', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const t0 = Date.now();
    const platform = rotatingSecretPlatform(t0 + 5000, 60_000);
    const logger = recordingLogger({ levels: ['warn', 'error'] });
    const cards = createProgressCards({ channels: [platform.plugin], logger, env: {} });
    const first = cards.open('memory');
    const second = cards.open('memory');
    first.start({ title: 'first' });
    second.start({ title: 'second' });
    first.toolStarted('a', 'shell', { command: 'make' });
    await settle(4000);
    // Both cards are live before the secret is rotated.
    expect(platform.channel.messages.size).toBe(2);

    await settle(2000);
    first.toolFinished('a', 'ok');
    second.complete('second done');
    await settle(10_000);
    first.complete('first done');
    // Refused for the minute: nothing ends, nothing is lost.
    let firstFinal: unknown;
    let secondFinal: unknown;
    void first.finalDelivery.then((result) => (firstFinal = result));
    void second.finalDelivery.then((result) => (secondFinal = result));
    await settle(40_000);
    expect(firstFinal).toBeUndefined();
    expect(secondFinal).toBeUndefined();
    // One probe at a time with backoff (5, 10, 20, 30 s), not every card on every change.
    expect(platform.refusedCalls()).toBeLessThanOrEqual(6);

    await settle(60_000);
    expect(firstFinal).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    expect(secondFinal).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const shown = [...platform.channel.messages.values()].map((message) => message.history.at(-1)!);
    expect(shown.map((payload) => [payload.status, payload.answer])).toEqual([
      ['completed', 'first done'],
      ['completed', 'second done'],
    ]);
    // A fresh token was fetched before each probe.
    expect(platform.refreshes()).toBeGreaterThanOrEqual(2);
    // One error when the credentials are refused, one warning when they work again.
    expect(logger.lines.filter((line) => line.startsWith('error'))).toEqual([expect.stringMatching(/^error memory: credentials refused although they worked before/)]);
    expect(logger.lines.some((line) => /credentials accepted again/.test(line))).toBe(true);
    await cards.shutdown();
  });

  it('a final waits at most retry.credentialWaitMs, then it is reported undeliverable naming the credentials', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const t0 = Date.now();
    const platform = rotatingSecretPlatform(t0 + 1000, 3_600_000);
    const cards = createProgressCards({ channels: [platform.plugin], logger: recordingLogger(), env: {}, retry: { credentialWaitMs: 60_000 } });
    const card = cards.open('memory');
    card.start({ title: 'run' });
    await settle(2000);
    card.complete('done');
    let final: unknown;
    void card.finalDelivery.then((result) => (final = result));
    await settle(50_000);
    expect(final).toBeUndefined();
    await settle(60_000);
    expect(final).toMatchObject({ ok: false, status: 'completed', error: expect.stringMatching(/^memory credentials refused: .*rotated/) });
    expect(cards.diagnostics()).toMatchObject({ openCards: 0, pendingCards: 0, inFlight: 0 });
    await cards.shutdown();
  });

  it('shutdown while cards wait for the credentials reports their finals not delivered and leaves no timer', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = rotatingSecretPlatform(Date.now() + 1000, 3_600_000);
    const cards = createProgressCards({ channels: [platform.plugin], logger: recordingLogger(), env: {} });
    const card = cards.open('memory');
    card.start({ title: 'run' });
    await settle(2000);
    card.complete('done');
    await settle(1000);
    const done = cards.shutdown();
    await settle(10_000);
    expect(await done).toMatchObject([{ ok: false, status: 'completed' }]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
