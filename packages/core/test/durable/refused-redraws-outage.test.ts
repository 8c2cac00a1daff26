import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ChannelPlugin, type MemoryPayload, type UpdateRequest } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

/** A memory channel whose updates (or sends) answer 502 while `down(msSinceStart)` holds. */
function flakyPlatform(down: (msSinceStart: number) => boolean, op: 'update' | 'send') {
  const t0 = Date.now();
  const channel = memoryChannel();
  const refuse = () => Promise.reject(new Error('HTTP 502'));
  const plugin: ChannelPlugin<MemoryPayload, string> = {
    ...channel,
    transport: {
      ...channel.transport,
      send: (request) => (op === 'send' && down(Date.now() - t0) ? refuse() : channel.transport.send(request)),
      update: (request: UpdateRequest<MemoryPayload>) => (op === 'update' && down(Date.now() - t0) ? refuse() : channel.transport.update(request)),
    },
  };
  return { channel, plugin };
}

describe('F13 a few refused redraws in a row', () => {
  const c = faultCase(cases, 'F13');
  it('the card resumes its refreshes after the platform recovers, saying since when live updates were interrupted, and ends completed', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
    const { channel, plugin } = flakyPlatform((ms) => ms >= 2500 && ms < 6500, 'update');
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    const t0 = Date.now();
    await playEvents(card, c.events.filter((e) => e.at < 40_000), fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(39_000 - (Date.now() - t0));
    const accepted = channel.calls.filter((call) => !call.failure);
    const afterOutage = accepted.filter((call) => call.at - t0 > 6500);
    // Refreshes resumed: several updates after the outage, the elapsed time moving on.
    expect(afterOutage.length).toBeGreaterThanOrEqual(3);
    expect(new Set(afterOutage.map((call) => call.payload.tools[0])).size).toBeGreaterThanOrEqual(3);
    expect(afterOutage[0]!.payload.notice).toBe('⚠️ 实时更新自 14:00 起中断过，现已恢复');
    await playEvents(card, c.events.filter((e) => e.at >= 40_000), fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'All 318 integration tests pass.' });
    expect(channel.messages.size).toBe(1);
  });

  it('a blip during the first send does not hide the card until the final', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
    const { channel, plugin } = flakyPlatform((ms) => ms < 4000, 'send');
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    const t0 = Date.now();
    await playEvents(card, c.events.filter((e) => e.at < 40_000), fakeTime(vi), { startAt: t0 });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'running' });
    expect(channel.calls.filter((call) => !call.failure && call.at - t0 < 20_000).length).toBeGreaterThanOrEqual(2);
    await cards.shutdown();
  });
});
