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
 * and ends with the final; a run over before its stream could open (the start turned away) shows
 * its whole answer and footer in one message, once, with no stream; a run whose stream is open ends
 * through it, footer included; the platform's own Stop cancels the run, reaches `onStop` and nothing
 * is re-posted. Skipped for a driver without streams.
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

    it('a run over before its stream could open (the start refused as rate-limited): its whole answer and footer in one message, once; no stream opened', { timeout: 30_000 }, async (context) => {
      const t = await start(context);
      if (!t) return;
      try {
        // The platform turns the stream's start away (its start route is busy: Slack's Tier 2); the run ends meanwhile.
        t.platform.fail('send', { kind: 'rate-limited', retryAfterMs: 2_000 });
        const opened = await t.platform.streamedCard();
        const before = t.platform.messages().length;
        const card = t.cards.open(t.platform.plugin.id, undefined, { locale: 'en', requester: { id: 'U0OWNER', name: 'Owner' }, ...opened });
        card.start({ title: 'Quick question', model: 'conformance-model-7' });
        card.answer('The build is green. ');
        await sleep(200);
        card.answer('All 112 tests pass.');
        card.complete();
        expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
        await t.cards.idle();
        expect(t.platform.streams()).toEqual([]);
        const posted = t.platform.messages().slice(before);
        expect(posted).toHaveLength(1);
        expect(posted[0]!.text).toContain('The build is green. All 112 tests pass.');
        // The footer (it names the run's model) is on that message.
        expect(posted[0]!.text).toContain('conformance-model-7');
        // Nothing more is sent once the card is final.
        await sleep(500);
        expect(t.platform.messages().slice(before).map((m) => m.text)).toEqual([posted[0]!.text]);
      } finally {
        await t.cards.shutdown();
        await t.platform.close();
      }
    });

    it('a run whose stream is open ends through the stream: the whole answer once, the footer on the stream message', { timeout: 30_000 }, async (context) => {
      const t = await start(context);
      if (!t) return;
      try {
        const opened = await t.platform.streamedCard();
        const before = t.platform.messages().length;
        const card = t.cards.open(t.platform.plugin.id, undefined, { locale: 'en', requester: { id: 'U0OWNER', name: 'Owner' }, ...opened });
        card.start({ title: 'Quick question', model: 'conformance-model-7' });
        card.answer('The build is green. ');
        for (let waited = 0; t.platform.streams().length === 0 && waited < 20_000; waited += 20) await sleep(20);
        expect(t.platform.streams()).toHaveLength(1);
        card.answer('All 112 tests pass.');
        card.complete();
        expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
        await t.cards.idle();
        const [stream] = t.platform.streams();
        expect(t.platform.streams()).toEqual([{ id: stream!.id, text: 'The build is green. All 112 tests pass.' }]);
        const posted = t.platform.messages().slice(before);
        expect(posted.map((m) => m.id)).toEqual([stream!.id]);
        expect(posted[0]!.text).toContain('conformance-model-7');
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
