import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { faultCase, fakeTime, loadFaultCases, playEvents } from '../../src/testing/index.js';

// F25 is copied from the team's shared fault-case set (faults-4), with the fields' reports it names.
const cases = loadFaultCases(new URL('../fixtures/stream-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

/**
 * A call cap with an idle stream (issue 31 leftover: a breaker saw a final reported wrongly in an
 * idle keep-alive case under a call cap). F25 (WeCom-like: a stream with no call for 6 min expires,
 * and later calls are acknowledged without being shown) with `runCallCap: 2`: once the start spent
 * the progressive share, the tool's finish was held back, and with it every keep-alive (the
 * session offered the held append instead); the stream expired at 6 min, and the final's stop was
 * acknowledged but not shown, yet reported `completed`. A due keep-alive counts against the cap
 * like any call: with the cap holding progress, the stream is closed (a roll-over stop) before it
 * expires, and the final opens a fresh stream.
 */
describe('per-message call cap: an idle stream is closed before it expires while the cap holds its content', () => {
  for (const expired of ['ignore', 'refuse'] as const) {
    it(`F25 with a cap of 2 (expired stream calls: ${expired}): no open stream goes 6 minutes without a call, the final is shown in a fresh stream and reported so`, async () => {
      vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
      const t0 = Date.now();
      const channel = memoryChannel({ streaming: { lifetime: { idleExpiryMs: 360_000 }, ...(expired === 'ignore' ? { expired } : {}) }, switches: { runCallCap: 2 } });
      const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
      const card = cards.open('memory', undefined, { locale: 'en' });
      await playEvents(card, faultCase(cases, 'F25').events, fakeTime(vi), { startAt: t0 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
      expect(channel.calls.filter((call) => call.failure || call.ignored)).toEqual([]);
      // Each stream's calls came less than 6 minutes apart, up to its stop.
      for (const id of new Set(channel.calls.map((call) => call.messageId))) {
        const at = channel.calls.filter((call) => call.messageId === id).map((call) => call.at);
        for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeLessThan(360_000);
      }
      const streams = [...channel.messages.values()].map((message) => message.stream!);
      expect(streams).toHaveLength(2);
      expect(streams[0]).toMatchObject({ state: 'stopped', continued: true });
      expect(streams[1]).toMatchObject({ state: 'stopped', status: 'completed', text: 'The index is rebuilt: 12k documents, 3 shards.' });
      // The start and the stop of the idle stream, then the final's start and stop: no keep-alive past the cap.
      expect(channel.calls.map((call) => call.op)).toEqual(['start', 'stop', 'start', 'stop']);
    });
  }
});
