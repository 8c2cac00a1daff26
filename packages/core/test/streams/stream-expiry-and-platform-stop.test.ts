import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type MemoryStreamOptions } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';

// F25 and F27 are copied from the team's shared fault-case set (faults-4); each line names its field reports.
const cases = loadFaultCases(new URL('../fixtures/stream-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

function start(streaming: MemoryStreamOptions, openOptions: { requester?: { id: string; name: string } } = {}) {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
  const channel = memoryChannel({ streaming });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const card = cards.open('memory', undefined, { locale: 'en', ...openOptions });
  return { channel, cards, card };
}

/** Longest time between two accepted calls of the run's streams while it ran, in ms. */
function longestSilence(calls: readonly { at: number; failure?: string; ignored?: true }[], until: number): number {
  const accepted = calls.filter((call) => !call.failure && !call.ignored).map((call) => call.at);
  let longest = 0;
  for (let i = 1; i < accepted.length; i += 1) longest = Math.max(longest, Math.min(accepted[i]!, until) - accepted[i - 1]!);
  return longest;
}

describe('F25 an idle stream expires (WeCom-like: a stream with no update for 6 min drops later frames)', () => {
  const c = faultCase(cases, 'F25');
  it('the core keeps the stream alive through 8 silent minutes: the answer and the final are shown, no gap reaches 6 min', async () => {
    const { channel, card } = start({ lifetime: { idleExpiryMs: 360_000 }, expired: 'ignore' });
    const t0 = Date.now();
    await playEvents(card, c.events, fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const streamCalls = channel.calls.filter((call) => call.op !== 'send' && call.op !== 'update');
    expect(streamCalls.filter((call) => call.ignored)).toEqual([]);
    expect(longestSilence(streamCalls, t0 + 782_000)).toBeLessThan(360_000);
    const [stream] = [...channel.messages.values()];
    expect(channel.messages.size).toBe(1);
    expect(stream!.stream).toMatchObject({ text: 'The index is rebuilt: 12k documents, 3 shards.', state: 'stopped', status: 'completed' });
    expect(stream!.stream!.footer).not.toBe('');
    expect(stream!.stream!.tasks.get('w1')).toMatchObject({ status: 'complete', output: 'index rebuilt' });
    // Keep-alives carry nothing new: the text is not repeated.
    expect(streamCalls.filter((call) => call.op === 'append').length).toBeGreaterThanOrEqual(1);
  });

  it('a stream that expired anyway (the platform refuses it) goes on in a fresh stream with the text it did not take', async () => {
    const { channel, card } = start({ lifetime: { idleExpiryMs: 360_000 } });
    await playEvents(card, c.events.slice(0, 4), fakeTime(vi), { startAt: Date.now() });
    await vi.advanceTimersByTimeAsync(1_000);
    // The platform ends the stream early (a restart on its side): the next call is refused.
    channel.messages.get('s1')!.stream!.state = 'expired';
    card.toolFinished('w1', 'index rebuilt');
    card.answer('Done.');
    card.complete();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const texts = [...channel.messages.values()].map((message) => message.stream!.text);
    expect(texts.join('')).toBe('Done.');
    expect(channel.messages.get('s2')!.stream).toMatchObject({ state: 'stopped', status: 'completed' });
  });
});

describe('F25 with a maximum age (Teams-like: a stream ends two minutes after its start)', () => {
  const c = faultCase(cases, 'F25');
  it('closeBeforeMaxAge: each quiet stream is closed before its end of life, none expires unclosed; the answer and the final still show', async () => {
    const { channel, card } = start({ lifetime: { maxAgeMs: 120_000, closeBeforeMaxAge: true } });
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const streams = [...channel.messages.values()].map((message) => message.stream!);
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams.map((stream) => stream.state)).toEqual(streams.map(() => 'stopped'));
    expect(streams.map((stream) => stream.text).join('')).toBe('The index is rebuilt: 12k documents, 3 shards.');
    expect(streams.at(-1)).toMatchObject({ status: 'completed' });
    expect(channel.calls.filter((call) => call.failure)).toEqual([]);
  });

  it('without it, a quiet stream is left to reach its end of life (the platform closes it), and the card goes on in a fresh one', async () => {
    const { channel, card } = start({ lifetime: { maxAgeMs: 120_000 } });
    await playEvents(card, c.events, fakeTime(vi), { startAt: Date.now() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.get('s1')!.stream!.state).not.toBe('stopped');
  });
});

describe('F27 the user stops the stream with the platform\'s own Stop', () => {
  const c = faultCase(cases, 'F27');
  async function stoppedRun(withHandler: boolean) {
    const { channel, card } = start({ lifetime: { maxAgeMs: 120_000 } }, { requester: { id: 'U1', name: 'Ana' } });
    const heard: string[] = [];
    if (withHandler) card.onStop((by) => void heard.push(by.id));
    const t0 = Date.now();
    await playEvents(card, c.events.filter((event) => event.at < 5_000), fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(t0 + 5_000 - Date.now());
    channel.stopStream('s1');
    await playEvents(card, c.events.filter((event) => event.at >= 5_000), fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(10_000);
    return { channel, card, heard, stoppedAt: t0 + 5_000 };
  }

  it('the run ends cancelled, the stop handler hears it, nothing is re-posted, at most one call reaches the stopped message', async () => {
    const { channel, card, heard, stoppedAt } = await stoppedRun(true);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'cancelled' });
    expect(heard).toEqual(['U1']);
    expect(card.view().error).toBe('Stopped by Ana');
    expect(channel.messages.size).toBe(1);
    expect(channel.calls.filter((call) => call.at > stoppedAt && call.messageId === 's1').length).toBeLessThanOrEqual(1);
    expect(channel.calls.filter((call) => call.op === 'send' || call.op === 'start').length).toBe(1);
    // What the user stopped stays as it was: the first sentence only.
    expect(channel.messages.get('s1')!.stream!.text).toBe('Release 2.4 adds dark mode. ');
  });

  it('without a stop handler the card still ends cancelled', async () => {
    const { card, heard } = await stoppedRun(false);
    expect(heard).toEqual([]);
    expect(await card.finalDelivery).toMatchObject({ status: 'cancelled' });
  });
});
