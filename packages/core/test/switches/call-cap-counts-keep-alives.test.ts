import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

const CAP = 4;

/**
 * A keep-alive is a platform call like any other: it counts against `runCallCap` and goes only while
 * the cap lets progress go. Before, an idle stream with a cap of 4 made 14 keep-alives in 15 minutes.
 * Once the cap holds progress, a due keep-alive becomes the stream's roll-over stop (the stream is
 * closed in time, as it is when it reaches its end of life under a spent cap), and the final opens
 * a fresh stream through the final's ladder.
 */
describe('per-message call cap: keep-alives count against it', () => {
  for (const expired of ['refuse', 'ignore'] as const) {
    it(`an idle stream (1 min idle expiry, expired calls: ${expired}) with a cap of ${CAP}: keep-alives stop once the cap holds progress, the stream is closed before it expires, the final is shown`, async () => {
      vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
      const channel = memoryChannel({ streaming: { lifetime: { idleExpiryMs: 60_000 }, expired }, switches: { runCallCap: CAP } });
      const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
      const card = cards.open('memory', undefined, { locale: 'en' });
      card.push({ type: 'run.started', title: 'Idle' });
      card.push({ type: 'answer.delta', text: 'Working. ' });
      // Fifteen quiet minutes.
      await vi.advanceTimersByTimeAsync(15 * 60_000);
      const beforeFinal = channel.calls.length;
      expect(beforeFinal).toBeLessThanOrEqual(CAP);
      expect(channel.calls.filter((call) => call.op === 'append').length).toBeLessThan(CAP);
      // Every stream opened so far was closed in time, none left to expire.
      const streams = () => [...channel.messages.values()].filter((message) => message.stream).map((message) => message.stream!);
      expect(streams().map((stream) => stream.state)).toEqual(streams().map(() => 'stopped'));
      card.push({ type: 'answer.delta', text: 'Done.' });
      card.push({ type: 'run.completed' });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
      expect(channel.calls.filter((call) => call.failure || call.ignored)).toEqual([]);
      // The final's fresh stream: a start and its stop, beyond the cap.
      expect(channel.calls.length).toBeLessThanOrEqual(CAP + 2);
      expect(streams().map((stream) => stream.text).join('')).toBe('Working. Done.');
      expect(streams().at(-1)).toMatchObject({ state: 'stopped', status: 'completed' });
      // No stream went a minute without a call while open.
      for (const stream of streams()) expect(stream.lastCallAt - stream.startedAt).toBeLessThan(15 * 60_000);
    });
  }
});
