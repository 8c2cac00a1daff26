import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger } from '../../src/index.js';
import { scriptedPlatform, type PlatformAnswer } from './scripted-platform.js';

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
    const done = cards.shutdown({ deadlineMs: 120_000 });
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

  it('an update landing late while the final waits for its continuation parts: the final is re-asserted after it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const answers: PlatformAnswer[] = [{ kind: 'ok' }, { kind: 'ok' }, { kind: 'late', lateMs: 3501 }, { kind: 'ok' }, { kind: 'ok' }, { kind: 'ok' }, { kind: 'rate-limited' }, { kind: 'rate-limited' }, { kind: 'late', lateMs: 1 }];
    const platform = scriptedPlatform({ any: answers }, { answerChunkChars: 60 });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    card.answer('Looking. ');
    card.toolStarted('c1', 'shell', { command: 'step 1' });
    await vi.advanceTimersByTimeAsync(1083);
    card.answer('Looking. ');
    await vi.advanceTimersByTimeAsync(2280);
    card.toolStarted('c1', 'shell', { command: 'step 1' });
    await vi.advanceTimersByTimeAsync(2637);
    card.answer('A longer sentence of the answer that spans more. ');
    const done = cards.shutdown({ deadlineMs: 120_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await done).toMatchObject([{ ok: true, status: 'cancelled' }]);
    expect(platform.channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'cancelled' });
  });

  it('a final given up on a fresh message that exists: the first message is closed, so the final shows once', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const late: PlatformAnswer = { kind: 'late', lateMs: 1 };
    const answers: PlatformAnswer[] = [late, { kind: 'rate-limited' }, { kind: 'ok' }, { kind: 'lost' }, late, late, { kind: 'ok' }, { kind: 'rate-limited' }];
    const platform = scriptedPlatform({ any: answers });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    card.complete('FINAL-ANSWER');
    await vi.advanceTimersByTimeAsync(120_000);
    await card.finalDelivery;
    const finals = [...platform.channel.messages.values()].filter((message) => message.history.at(-1)!.answer === 'FINAL-ANSWER');
    expect(finals).toHaveLength(1);
  });

  it('a final given up on a fresh message whose sends timed out: the first message is closed, because the fresh one may exist', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const late: PlatformAnswer = { kind: 'late', lateMs: 1 };
    // Progressive send ok → final updates 429, 500, 500, 500 (climbs to a fresh message) → send 429 → three sends applied late.
    const transient: PlatformAnswer = { kind: 'transient' };
    const answers: PlatformAnswer[] = [{ kind: 'ok' }, { kind: 'rate-limited' }, transient, transient, transient, { kind: 'rate-limited' }, late, late, late];
    const platform = scriptedPlatform({ any: answers });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    await vi.advanceTimersByTimeAsync(10);
    card.complete('FINAL-ANSWER');
    await vi.advanceTimersByTimeAsync(120_000);
    // The client never saw the fresh message, so the final is reported undeliverable, naming no message.
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, freshMessage: true });
    expect(final.message).toBeUndefined();
    const shown = [...platform.channel.messages.values()].map((message) => [message.id, message.history.at(-1)!.answer]);
    // The client never saw the fresh card: the first message does not claim it was sent below.
    expect(shown).toEqual([
      ['m1', '（这张卡片无法再更新，结果可能未能送达。）'],
      ['m2', 'FINAL-ANSWER'],
    ]);
  });

  it('a final accepted on its message whose check-up update then fails: it stays on that message (no second copy on a fresh one)', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const late: PlatformAnswer = { kind: 'late', lateMs: 1 };
    // Send (late) → resend ok holding the final → update 429 → update 500: once the shrunk counterexample above, now the final stays on m1.
    const answers: PlatformAnswer[] = [late, { kind: 'ok' }, { kind: 'rate-limited' }, { kind: 'transient' }, { kind: 'rate-limited' }, late, late, late];
    const platform = scriptedPlatform({ any: answers });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    card.complete('FINAL-ANSWER');
    await vi.advanceTimersByTimeAsync(120_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ freshMessage: false });
    const shown = [...platform.channel.messages.values()].map((message) => [message.id, message.history.at(-1)!.answer]);
    expect(shown).toEqual([['m1', 'FINAL-ANSWER']]);
  });

  it.each<[string, PlatformAnswer]>([
    ['rate-limited', { kind: 'rate-limited' }],
    // The last try hangs until the call timeout: the round ends after the older call could land.
    ['never answered', { kind: 'hang' }],
  ])('closing the first message keeps failing (last try %s) while an older final may land on it: it is closed again after that', async (_name, lastClose) => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const late = (lateMs: number): PlatformAnswer => ({ kind: 'late', lateMs });
    // A progressive send ok, final updates applied late (the last 2.2 s late: the final climbs to
    // a fresh message), the fresh send ok, then the closes of the first message: two applied late,
    // then two refused.
    const answers: PlatformAnswer[] = [{ kind: 'ok' }, late(1), late(1), late(1), late(2212), { kind: 'ok' }, late(1), late(1), { kind: 'rate-limited' }, lastClose];
    const platform = scriptedPlatform({ any: answers });
    const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.start({ title: 'property' });
    await vi.advanceTimersByTimeAsync(10);
    card.complete('FINAL-ANSWER');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, freshMessage: true, message: { id: 'm2' } });
    const shown = [...platform.channel.messages.values()].map((message) => [message.id, message.history.at(-1)!.answer]);
    expect(shown).toEqual([
      ['m1', '（这张卡片无法再更新，结果已发送为下方的新卡片。）'],
      ['m2', 'FINAL-ANSWER'],
    ]);
  });
});
