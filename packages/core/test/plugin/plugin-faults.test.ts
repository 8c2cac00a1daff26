import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type CardView, type ChannelPlugin, type MemoryPayload } from '../../src/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** The value of `promise` if it settles within 1 s of fake time, else 'still pending' (a hang fails fast instead of timing out). */
async function now<T>(promise: Promise<T>): Promise<T | 'still pending'> {
  const result = Promise.race([promise, new Promise<'still pending'>((resolve) => setTimeout(() => resolve('still pending'), 1000))]);
  await vi.advanceTimersByTimeAsync(1000);
  return result;
}

/** A plugin whose own code throws: a dispatch must never reject (Node would exit), and only that card may suffer. */
describe('a plugin that throws', () => {
  function compose(plugin: ChannelPlugin) {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    return createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
  }

  it('a renderer that throws for one card falls back to the plain render; the other cards go on', async () => {
    const channel = memoryChannel();
    const render = (view: CardView): MemoryPayload => {
      if (view.title === 'poison') throw new Error('render bug');
      return channel.renderer.render(view);
    };
    const cards = compose({ ...channel, renderer: { ...channel.renderer, render } } as ChannelPlugin);
    const bad = cards.open('memory', undefined, { title: 'poison' });
    const good = cards.open('memory', undefined, { title: 'fine' });
    bad.complete('still delivered');
    good.complete('good');
    await settle(10_000);
    expect(await now(good.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    expect(await now(bad.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const badMessage = channel.messages.get((await bad.finalDelivery).message!.id)!;
    expect(badMessage.history.at(-1)).toMatchObject({ format: 'text', answer: 'still delivered' });
    expect(await now(cards.shutdown())).not.toBe('still pending');
  });

  it('when the fallback render throws too, the final is reported undeliverable instead of hanging', async () => {
    const channel = memoryChannel();
    const boom = () => {
      throw new Error('render bug');
    };
    const cards = compose({ ...channel, renderer: { render: boom, renderFallback: boom } } as ChannelPlugin);
    const card = cards.open('memory');
    card.toolStarted('t', 'shell', { command: 'make' });
    await settle(10_000);
    card.complete('done');
    await settle(10_000);
    expect(await now(card.finalDelivery)).toMatchObject({ ok: false, status: 'completed', error: expect.stringContaining('render bug') });
    expect(channel.calls).toEqual([]);
    expect(await now(cards.idle())).toBeUndefined();
  });

  it('a transport that throws a non-Error and a classify that throws are a transient failure, retried', async () => {
    const channel = memoryChannel();
    let calls = 0;
    const send: ChannelPlugin<MemoryPayload, string>['transport']['send'] = async (request) => {
      if (++calls === 1) throw undefined; // eslint-disable-line no-throw-literal
      return channel.transport.send(request);
    };
    const classify = (error: unknown) => {
      if (error === undefined) throw new TypeError('classify bug');
      return channel.transport.classify(error);
    };
    const cards = compose({ ...channel, transport: { ...channel.transport, send, classify } } as ChannelPlugin);
    const card = cards.open('memory');
    card.complete('after a retry');
    await settle(10_000);
    expect(await now(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.size).toBe(1);
  });
});
