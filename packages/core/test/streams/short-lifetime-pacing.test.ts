import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type MemoryStreamOptions } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

function start(streaming: MemoryStreamOptions, perCardIntervalMs: number) {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
  const channel = memoryChannel({ streaming, overrides: { perCardIntervalMs } });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const card = cards.open('memory', undefined, { locale: 'en' });
  const streams = () => [...channel.messages.values()].filter((message) => message.stream).map((message) => message.stream!);
  return { channel, cards, card, streams };
}

/** Twenty answer sentences, one every 300 ms, then the run ends. */
async function busyRun(card: ReturnType<typeof start>['card']): Promise<string> {
  let answer = '';
  card.push({ type: 'run.started', title: 'Short-lived streams' });
  for (let i = 0; i < 20; i += 1) {
    const sentence = `S${i}. `;
    answer += sentence;
    card.push({ type: 'answer.delta', text: sentence });
    await vi.advanceTimersByTimeAsync(300);
  }
  card.push({ type: 'run.completed' });
  await vi.advanceTimersByTimeAsync(20_000);
  return answer;
}

/**
 * A per-card interval of half the stream's life or more (Teams takes `streaming.lifetimeMs` 2000 with
 * its 1000 ms interval): the next call after one cannot come before the roll-over margin, so the
 * stream is closed at the last call that still reaches it in time. Before, the core stopped looking
 * one interval ahead at that ratio and every stream ran past its end of life unclosed.
 */
describe('native streams whose life is at most two per-card intervals', () => {
  for (const text of ['append', 'full'] as const) {
    it(`2 s life, 1 s interval (${text} text, closed before the end of life): every stream is stopped within its life, every character once, the final stops the last`, async () => {
      const { channel, card, streams } = start({ lifetime: { maxAgeMs: 2000, closeBeforeMaxAge: true }, text }, 1000);
      const answer = await busyRun(card);
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
      expect(channel.calls.filter((call) => call.failure || call.ignored)).toEqual([]);
      const all = streams();
      expect(all.length).toBeGreaterThan(1);
      expect(all.map((stream) => stream.state)).toEqual(all.map(() => 'stopped'));
      expect(all.map((stream) => stream.text).join('')).toBe(answer);
      expect(all.at(-1)).toMatchObject({ status: 'completed' });
      // Every call reached its stream within the stream's life.
      for (const call of channel.calls) expect(call.at - channel.messages.get(call.messageId)!.stream!.startedAt).toBeLessThan(2000);
    });
  }

  it('a quiet stream (no new text) is still closed before its 2 s end of life, and the final opens a fresh one', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 2000, closeBeforeMaxAge: true } }, 1000);
    card.push({ type: 'run.started', title: 'Quiet' });
    card.push({ type: 'answer.delta', text: 'Looking. ' });
    await vi.advanceTimersByTimeAsync(600);
    card.push({ type: 'answer.delta', text: 'Still looking. ' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(streams()[0]).toMatchObject({ state: 'stopped', continued: true });
    card.push({ type: 'answer.delta', text: 'Found it.' });
    card.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.calls.filter((call) => call.failure || call.ignored)).toEqual([]);
    expect(streams().every((stream) => stream.state === 'stopped')).toBe(true);
    expect(streams().map((stream) => stream.text).join('')).toBe('Looking. Still looking. Found it.');
    for (const call of channel.calls) expect(call.at - channel.messages.get(call.messageId)!.stream!.startedAt).toBeLessThan(2000);
  });
});
