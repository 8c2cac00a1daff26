import { describe, expect, it } from 'vitest';
import { createProgressCards } from '../../compose.js';
import type { ProgressCards } from '../../runtime/progress-cards.js';
import { recordingLogger } from '../recording-logger.js';
import type { ConformanceDriver, ConformanceSetup, ConformanceStreamPlatform } from './driver.js';

/** Wall-clock life of a stream in the stream cases (ms): long enough for a loaded machine, short enough for a test. */
const STREAM_LIFETIME_MS = 4_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The stream cases of {@link describeChannelConformance}, for a driver with `startStreaming`: a run
 * longer than three stream lifetimes shows every character once and in order across its streams
 * and ends with the final; the platform's own Stop cancels the run, reaches `onStop` and nothing is
 * re-posted. Skipped for a driver without streams.
 */
export function describeStreamConformance(driver: ConformanceDriver, timing: () => ConformanceSetup['timing'], retry: object): void {
  describe('native streams (skipped when the driver has no startStreaming)', () => {
    async function start(context: { skip: () => void }): Promise<{ platform: ConformanceStreamPlatform; cards: ProgressCards } | undefined> {
      if (!driver.startStreaming) {
        context.skip();
        return undefined;
      }
      const platform = await driver.startStreaming({ timing: timing(), interaction: false, streamLifetimeMs: STREAM_LIFETIME_MS });
      const cards = createProgressCards({ channels: [platform.plugin], logger: recordingLogger(), env: {}, retry });
      return { platform, cards };
    }

    it('a run of three and a half stream lifetimes rolls over: every character once, in order, the final shown', { timeout: 60_000 }, async (context) => {
      const t = await start(context);
      if (!t) return;
      try {
        const card = t.cards.open(t.platform.plugin.id, undefined, { locale: 'en', requester: { id: 'U0OWNER', name: 'Owner' }, ...(await t.platform.streamedCard()) });
        card.start({ title: 'Long run' });
        let answer = '';
        const steps = 28;
        for (let i = 0; i < steps; i += 1) {
          const sentence = `Part ${i} 🙂. `;
          answer += sentence;
          card.answer(sentence);
          await sleep((STREAM_LIFETIME_MS * 3.5) / steps);
        }
        card.complete();
        expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
        const streams = t.platform.streams();
        expect(streams.length).toBeGreaterThanOrEqual(3);
        expect(streams.map((stream) => stream.text).join('')).toBe(answer);
      } finally {
        await t.cards.shutdown();
        await t.platform.close();
      }
    });

    it('the platform\'s own Stop cancels the run, reaches onStop, and nothing is re-posted', { timeout: 30_000 }, async (context) => {
      const t = await start(context);
      if (!t) return;
      try {
        if (!t.platform.stopStream) return context.skip();
        const card = t.cards.open(t.platform.plugin.id, undefined, { locale: 'en', requester: { id: 'U0OWNER', name: 'Owner' }, ...(await t.platform.streamedCard()) });
        const heard = new Promise<string>((resolve) => card.onStop((by) => resolve(by.id)));
        card.start({ title: 'Release notes' });
        card.answer('Release 2.4 adds dark mode. ');
        for (let waited = 0; t.platform.streams().length === 0 && waited < 20_000; waited += 20) await sleep(20);
        const [stream] = t.platform.streams();
        t.platform.stopStream(stream!.id);
        card.answer('It also fixes the login loop. ');
        await expect(heard).resolves.toBe('U0OWNER');
        expect(await card.finalDelivery).toMatchObject({ status: 'cancelled' });
        await sleep(300);
        expect(t.platform.streams().map((s) => s.id)).toEqual([stream!.id]);
        expect(t.platform.streams()[0]!.text).toBe('Release 2.4 adds dark mode. ');
      } finally {
        await t.cards.shutdown();
        await t.platform.close();
      }
    });
  });
}
