import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, DEFAULT_CALL_TIMEOUT_MS, memoryChannel, silentLogger, type ChannelPlugin, type FinalDelivery, type MemoryPayload } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

const never = <T>() => new Promise<T>(() => undefined);

/**
 * The in-memory channel behind a transport whose calls hang (never settle) while `hangs(call)` says
 * so; the others go through. Counts the calls still hanging.
 */
function hangingPlatform(hangs: (call: 'send' | 'update', index: number) => boolean, overrides: Record<string, unknown> = {}) {
  const channel = memoryChannel({ overrides: { perCardIntervalMs: 0, ...overrides } });
  let index = 0;
  let hanging = 0;
  const sendKeys: string[] = [];
  const hang = <T>() => {
    hanging += 1;
    return never<T>();
  };
  const plugin: ChannelPlugin<MemoryPayload, string> = {
    ...channel,
    transport: {
      ...channel.transport,
      send: (request) => {
        sendKeys.push(request.idempotencyKey);
        return hangs('send', index++) ? hang() : channel.transport.send(request);
      },
      update: (request) => (hangs('update', index++) ? hang() : channel.transport.update(request)),
    },
  };
  return { plugin, channel, hanging: () => hanging, sendKeys };
}

async function runUntil(done: () => boolean, limitMs = 600_000): Promise<void> {
  for (let waited = 0; waited < limitMs && !done(); waited += 1000) await vi.advanceTimersByTimeAsync(1000);
}

describe('a platform call that never settles', () => {
  it('updates that hang are given up after the call timeout: the final goes out on a fresh message and shutdown() returns', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = hangingPlatform((call) => call === 'update');
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    let final: FinalDelivery | undefined;
    void card.finalDelivery.then((result) => (final = result));
    card.start({ title: 'hanging updates' });
    await vi.advanceTimersByTimeAsync(1000);
    card.complete('done');
    let shutDown = false;
    void cards.shutdown({ deadlineMs: 600_000 }).then(() => (shutDown = true));
    await runUntil(() => shutDown);
    expect(shutDown).toBe(true);
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const shown = [...platform.channel.messages.values()].map((message) => message.history.at(-1)!);
    expect(shown.filter((payload) => payload.answer === 'done')).toHaveLength(1);
    expect(platform.hanging()).toBeGreaterThan(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a final whose every call hangs is reported undeliverable, naming the timeout, and nothing is left waiting', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = hangingPlatform(() => true);
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'all hang' });
    card.complete('done');
    let final: FinalDelivery | undefined;
    void card.finalDelivery.then((result) => (final = result));
    await runUntil(() => final !== undefined);
    expect(final).toMatchObject({ ok: false, status: 'completed', error: `timeout: no answer within ${DEFAULT_CALL_TIMEOUT_MS} ms` });
    await cards.shutdown();
    expect(cards.diagnostics()).toMatchObject({ inFlight: 0, pendingCards: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the timeout is the channel setting callTimeoutMs: a hung send is retried under the same idempotency key after it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = hangingPlatform((call, index) => call === 'send' && index === 0, { callTimeoutMs: 2000 });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'first send hangs' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(platform.channel.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2000);
    // The retry went out under the hung try's key (it may have created the message), then the
    // message is updated once more, since the hung try may have left older content on it.
    expect(platform.sendKeys).toHaveLength(2);
    expect(new Set(platform.sendKeys).size).toBe(1);
    expect(platform.channel.calls.map((call) => call.op)).toEqual(['send', 'update']);
    card.complete('done');
    let final: FinalDelivery | undefined;
    void card.finalDelivery.then((result) => (final = result));
    // The hung send may still land late: the final is sent once more after that window, then reported.
    await runUntil(() => final !== undefined, 60_000);
    expect(final).toMatchObject({ ok: true, message: { id: 'm1' } });
    expect([...platform.channel.messages.values()].map((message) => message.history.at(-1)!.answer)).toEqual(['done']);
    await cards.shutdown();
  });

  it('a callTimeoutMs that is not a positive integer is refused, naming the channel and the value', () => {
    expect(() => memoryChannel({ overrides: { callTimeoutMs: 0 } })).toThrow('memory callTimeoutMs = 0');
    // A plugin that does not validate its settings itself: the composition refuses them.
    const channel = memoryChannel();
    const plugin = { ...channel, overrides: { callTimeoutMs: 1.5 } };
    expect(() => createProgressCards({ channels: [plugin], logger: silentLogger, env: {} })).toThrow('memory callTimeoutMs = 1.5: must be an integer number of ms (1 or more)');
  });
});
