import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger } from '../../src/index.js';
import { scriptedPlatform } from './scripted-platform.js';

afterEach(() => vi.useRealTimers());

/** Shrunk counterexamples of the delivery property suite, kept as regression tests. */
describe('delivery property regressions', () => {
  it('a late-applied update before a final with continuation parts: the final is re-asserted after the parts, not overwritten', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = scriptedPlatform({ any: [{ kind: 'ok' }, { kind: 'late', lateMs: 1001 }] }, { answerChunkChars: 60 });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    card.answer('Looking. ');
    await vi.advanceTimersByTimeAsync(451);
    card.answer('A longer sentence of the answer that spans more. ');
    await vi.advanceTimersByTimeAsync(2049);
    card.answer('Looking. ');
    const done = cards.shutdown();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await done).toMatchObject([{ ok: true, status: 'cancelled', continuations: { delivered: 1, total: 1 } }]);
    expect(platform.channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'cancelled' });
  });

  it('a send applied late, then a refused retry: one message shows the final', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = scriptedPlatform({ any: [{ kind: 'late', lateMs: 1001 }, { kind: 'transient' }] });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    card.complete('FINAL-ANSWER');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    expect([...platform.channel.messages.values()].map((message) => message.history.at(-1)!.answer)).toEqual(['FINAL-ANSWER']);
  });
});
