/**
 * A question still open when its run ends is settled then (as without a click: the default
 * option, `timedOut: true`), not when its own timeout (10 minutes by default) runs out, whichever
 * way the run ends.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ProgressCard } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

const ENDINGS: Record<string, (card: ProgressCard, cards: ReturnType<typeof createProgressCards>) => unknown> = {
  'complete()': (card) => card.complete('done'),
  'a run.completed event': (card) => card.push({ type: 'run.completed', answer: 'done' }),
  'fail()': (card) => card.fail('boom'),
  'cancel()': (card) => card.cancel('stopped'),
  'shutdown()': (_card, cards) => cards.shutdown(),
  'the stall watch abandoning the run': () => vi.advanceTimersByTimeAsync(30 * 60_000 - 1),
};

describe('open questions settle when their run ends', () => {
  for (const [ending, end] of Object.entries(ENDINGS)) {
    it(`${ending}: the approval resolves at once, denied as without a click`, async () => {
      vi.useFakeTimers({ now: 1_700_000_000_000 });
      const cards = createProgressCards({
        channels: [memoryChannel({ overrides: { perCardIntervalMs: 0 } })],
        logger: silentLogger,
        env: {},
        stall: { stallMs: 60_000, abandonMs: 120_000 },
      });
      const card = cards.open('memory', undefined, { locale: 'en' });
      card.start({ title: 'question' });
      let decided: { approved: boolean; timedOut?: boolean } | undefined;
      void card.requestApproval({ prompt: 'Deploy?' }).then((decision) => (decided = decision));
      await vi.advanceTimersByTimeAsync(1000);
      expect(decided).toBeUndefined();
      void end(card, cards);
      await vi.advanceTimersByTimeAsync(1000);
      expect(decided).toMatchObject({ approved: false, timedOut: true });
    });
  }
});
