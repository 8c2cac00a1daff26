import { faultCase, fakeTime, loadFaultCases, playEvents } from '@progresscard/core/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { inProcessBot } from './harness.js';

const F25 = faultCase(loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url)), 'F25');

beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-12-01T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

it('F25 an 8-minute quiet phase: every poll is still answered, and the final answer is visible at the end', async () => {
  const time = fakeTime(vi);
  const bot = inProcessBot();
  await bot.emulator.sendUserMessage({ userid: 'zhaoliu', text: '@bot rebuild the search index' });
  const { card } = bot.opened[0]!;
  await playEvents(card, F25.events, time);
  const finalDelivery = card.finalDelivery;
  await time.advance(30_000);
  expect(await finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  const [stream, reply] = bot.emulator.snapshot();
  // WeCom never dropped the stream for idleness: the bot answered every poll through the quiet phase.
  expect(stream!.expiredWith).toBeUndefined();
  expect(stream!.polls).toBeGreaterThanOrEqual(300);
  expect(stream!.text).toContain('./reindex.sh');
  // The run outlived the 6-minute window: the answer came as a new message, visible at the end.
  expect(reply!.text).toContain('The index is rebuilt: 12k documents, 3 shards.');
  await bot.cards.shutdown();
  await bot.emulator.close();
});
