import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, installShutdownHandlers, memoryChannel, silentLogger } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

function compose(latencyMs = 0) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel = memoryChannel({ latencyMs });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  return { channel, cards };
}

describe('process lifecycle', () => {
  it('shutdown() ends running cards as interrupted by a restart, in their language', async () => {
    const { channel, cards } = compose();
    const zh = cards.open('memory');
    const en = cards.open('memory', undefined, { locale: 'en' });
    zh.start();
    en.start();
    const done = cards.shutdown();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await done).toMatchObject([{ ok: true, status: 'cancelled' }, { ok: true, status: 'cancelled' }]);
    expect(zh.view().error).toBe('进程重启，任务已中断');
    expect(en.view().error).toBe('interrupted by a restart');
    expect([...channel.messages.values()].every((message) => message.history.at(-1)!.status === 'cancelled')).toBe(true);
  });

  it('shutdown({ deadlineMs }) is bounded: a call in flight at the deadline is answered first (bounded by the call timeout), then the final is reported not ok, finalDelivery alike', async () => {
    const { cards } = compose(60_000);
    const card = cards.open('memory');
    card.start();
    let results: unknown;
    void cards.shutdown({ deadlineMs: 2000 }).then((r) => (results = r));
    await vi.advanceTimersByTimeAsync(2100);
    // The send that left at the start hangs: its answer (or its 15 s timeout) decides what is true.
    expect(results).toBeUndefined();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(results).toMatchObject([{ ok: false, error: 'final not delivered within the shutdown deadline (2000 ms)' }]);
    expect(await card.finalDelivery).toEqual((results as unknown[])[0]);
  });

  it('open() after shutdown() is refused clearly', async () => {
    const { cards } = compose();
    await cards.shutdown();
    expect(() => cards.open('memory')).toThrow('cannot open a card on "memory": this ProgressCards was shut down');
  });

  it('a bad deadline is named', async () => {
    const { cards } = compose();
    await expect(cards.shutdown({ deadlineMs: -1 })).rejects.toThrow('shutdown deadlineMs = -1: must be at least 0 ms');
  });

  it('installShutdownHandlers: SIGTERM shuts the cards down, then exits with the signal; the handlers can be removed', async () => {
    const { channel, cards } = compose();
    const card = cards.open('memory');
    card.start();
    const exits: string[] = [];
    // Other modules loaded in the same test worker may listen too: count ours only.
    const listenersBefore = process.listenerCount('SIGTERM');
    const uninstall = installShutdownHandlers(cards, { exit: (signal) => exits.push(signal) });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      await vi.advanceTimersByTimeAsync(5000);
      expect(exits).toEqual(['SIGTERM']);
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'cancelled' });
      expect(channel.messages.get('m1')!.history.at(-1)!.status).toBe('cancelled');
    } finally {
      uninstall();
    }
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore);
  });
});
