import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

function start() {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
  const channel = memoryChannel();
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const card = cards.open('memory');
  const last = () => channel.messages.get('m1')!.history.at(-1)!;
  return { channel, cards, card, last };
}

describe('F11 a run nobody feeds any more', () => {
  const c = faultCase(cases, 'F11');
  it('after 10 min the card says since when there was no progress and stops ticking; after 30 min it ends failed with that reason', async () => {
    const { channel, card, last } = start();
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    // Ticking goes on until the stall (the quiet-period note may already say since when).
    const before = channel.calls.length;
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    expect(channel.calls.length).toBeGreaterThan(before);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(last()).toMatchObject({ status: 'running', note: '⏳ 14:00 后暂无新进展' });
    const callsWhenStalled = channel.calls.length;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    // Not refreshed for a run nobody is feeding.
    expect(channel.calls.length).toBe(callsWhenStalled);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'failed' });
    expect(last()).toMatchObject({ status: 'failed', answer: '' });
    expect(card.view().error).toBe('30 分无进展，任务已放弃');
  });

  it('an event after the stall resumes the card: the notice goes and the timers tick again', async () => {
    const { card, last } = start();
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    await vi.advanceTimersByTimeAsync(11 * 60_000);
    expect(last().note).toBeDefined();
    card.toolFinished('c1', '3 errors');
    card.answer('Three errors.');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(last().note).toBeUndefined();
    expect(last().tools[0]).toContain('3 errors');
    card.complete();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });

  it('with the quiet-period note turned off, the stall says since when there was no progress itself', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const card = cards.open('memory', undefined, { quietPeriodMs: 0 });
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    await vi.advanceTimersByTimeAsync(11 * 60_000);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'running', notice: '⏸ 自 14:00 起无进展' });
    await cards.shutdown();
  });

  it('stall settings are checked, naming the field and value', () => {
    expect(() => createProgressCards({ channels: [], stall: { stallMs: 0 } })).toThrow('stall.stallMs = 0: must be at least 1 ms');
    expect(() => createProgressCards({ channels: [], stall: { stallMs: 10_000, abandonMs: 5_000 } })).toThrow('stall.abandonMs (5000) must be at least stall.stallMs (10000)');
  });
});
