/**
 * Tool changes outrank streamed text: with text streaming on many cards and the route saturated, a
 * tool starting on a card goes out at the next slot, not after the text of the cards queued before it.
 * Simulated time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { maxCallsInWindow } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('tool changes before streamed text', () => {
  it('a tool start goes out at the next slot the window gives an update while 60 cards stream text into a saturated route', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // 20 calls a second (52.5 ms a slot), 250 ms per card: 60 streaming cards ask for 240 a second
    const channel = memoryChannel({ overrides: { budget: [{ limit: 20, intervalMs: 1000 }], perCardIntervalMs: 250, debounceMs: 300 }, latencyMs: 20 });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const streaming = Array.from({ length: 60 }, (_, i) => cards.open('memory', undefined, { title: `text ${i}` }));
    const tooling = cards.open('memory', undefined, { title: 'tools' });
    tooling.toolStarted('warm', 'shell', '{"command":"warm up"}');
    const waits: number[] = [];
    for (let step = 0; step < 100; step++) {
      for (const [i, card] of streaming.entries()) card.answer(`word${step}.${i} `);
      if (step >= 40 && step % 10 === 0) {
        const started = Date.now();
        const command = `job ${step}`;
        tooling.toolStarted(`t${step}`, 'shell', JSON.stringify({ command }));
        await settle(50);
        let shown = channel.calls.find((call) => call.at >= started && call.payload.title === 'tools' && call.payload.tools.some((line) => line.includes(command)));
        for (let extra = 0; !shown && extra < 100; extra++) {
          await settle(10);
          shown = channel.calls.find((call) => call.at >= started && call.payload.title === 'tools' && call.payload.tools.some((line) => line.includes(command)));
        }
        waits.push(shown ? shown.at - started : Number.POSITIVE_INFINITY);
        continue;
      }
      await settle(50);
    }
    const busy = channel.calls.filter((call) => call.at >= 1_700_000_002_000 && call.at < 1_700_000_005_000).length;
    // the route was saturated by text (about the 18 per widened second updates may take of 20)
    expect(busy).toBeGreaterThanOrEqual(3 * 15);
    expect(waits).toHaveLength(6);
    // one call reaching the platform (20 ms) plus the next slot the window gives an update (text
    // keeps it full: up to three slots of 52.5 ms), never the turn of the text queued before it
    // (before tools outranked text: 0.4 s to over 1 s)
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(20 + 3 * 52.5);
    expect(maxCallsInWindow(channel.calls.map((call) => call.at), 1000)).toBeLessThanOrEqual(20);
    for (const card of [...streaming, tooling]) card.complete('ok');
    await settle(60_000);
  });
});
