/**
 * Two channels in one composition, on fake time: each ticks at its own interval and spends its own
 * API budget, so a burst on one neither slows the other nor pushes it past its limit.
 * (The same composition over the real Feishu and DingTalk emulators: two-channels.e2e.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type MemoryCall, type MemoryChannel } from '@progresscard/core';
import { fakeTime, maxCallsInWindow } from '@progresscard/core/testing';

afterEach(() => vi.useRealTimers());

function compose() {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  const fast = memoryChannel({ id: 'fast', overrides: { tickMs: 1000, budget: [{ limit: 4, intervalMs: 1000 }], perCardIntervalMs: 0, debounceMs: 0 } });
  const slow = memoryChannel({ id: 'slow', overrides: { tickMs: 2500, budget: [{ limit: 2, intervalMs: 1000 }], perCardIntervalMs: 0, debounceMs: 0 } });
  const cards = createProgressCards({ channels: [fast, slow], logger: silentLogger, env: {} });
  return { fast, slow, cards, time: fakeTime(vi) };
}

/** Running seconds shown by the accepted updates, in order. */
function shownSeconds(channel: MemoryChannel): number[] {
  return channel.calls
    .filter((call) => !call.failure)
    .flatMap((call) => [...call.payload.tools.join('\n').matchAll(/running · (\d+)s/g)].map((m) => Number(m[1])));
}

/** The most calls in any window of `windowMs`. */
function maxInWindow(calls: readonly MemoryCall[], windowMs: number): number {
  return maxCallsInWindow(calls.map((call) => call.at), windowMs);
}

describe('two channels in one composition (fake time)', () => {
  it('each channel ticks at its own interval', async () => {
    const { fast, slow, cards, time } = compose();
    const onFast = cards.open('fast', undefined, { locale: 'en' });
    const onSlow = cards.open('slow', undefined, { locale: 'en' });
    for (const card of [onFast, onSlow]) card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    await time.advance(5300);
    expect(shownSeconds(fast)).toEqual([1, 2, 3, 4, 5]);
    expect(shownSeconds(slow)).toEqual([2, 5]);
    for (const card of [onFast, onSlow]) card.complete('All tests pass.');
    await time.advance(1000);
    expect((await onFast.finalDelivery).ok && (await onSlow.finalDelivery).ok).toBe(true);
    await cards.shutdown();
  });

  it('each channel spends its own budget: a burst on one neither slows the other nor exceeds its limit', async () => {
    /** Fake-time offsets of the slow channel's calls for 4 finals, with or without a burst on the fast one. */
    async function slowFinals(withBurst: boolean) {
      const { fast, slow, cards, time } = compose();
      const t0 = time.now();
      const burst = [
        ...Array.from({ length: withBurst ? 12 : 0 }, () => cards.open('fast')),
        ...Array.from({ length: 4 }, () => cards.open('slow')),
      ];
      for (const [i, card] of burst.entries()) card.complete(`answer ${i}`);
      await time.advance(10_000);
      const finals = await Promise.all(burst.map((card) => card.finalDelivery));
      expect(finals.every((final) => final.ok)).toBe(true);
      await cards.shutdown();
      vi.useRealTimers();
      return { fast: fast.calls, slow: slow.calls, slowTimes: slow.calls.map((call) => call.at - t0) };
    }
    const alone = await slowFinals(false);
    const beside = await slowFinals(true);
    expect(beside.slowTimes).toEqual(alone.slowTimes);
    expect(beside.fast).toHaveLength(12);
    expect(maxInWindow(beside.fast, 1000)).toBe(4);
    expect(maxInWindow(beside.slow, 1000)).toBe(2);
  });
});
