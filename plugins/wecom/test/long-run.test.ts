import { fakeTime } from '@progresscard/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inProcessBot } from './harness.js';

beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-12-01T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('WeCom pulls the card: every poll is served from the latest state', () => {
  it('a 12-minute run: the stream shows the run until its 6-minute window closes, then the complete answer follows through response_url', async () => {
    const time = fakeTime(vi);
    const bot = inProcessBot();
    const sent = await bot.emulator.sendUserMessage({ userid: 'zhangsan', text: '@bot refactor the parser' });
    expect(sent.ok).toBe(true);
    const [{ card }] = bot.opened as [(typeof bot.opened)[0]];
    card.start({ title: 'Refactor parser' });
    // One tool a minute for 12 minutes.
    for (let minute = 0; minute < 12; minute++) {
      card.toolStarted(`t${minute}`, 'shell', { command: `make step-${minute}` });
      await time.advance(30_000);
      card.toolFinished(`t${minute}`, `step ${minute} ok`);
      await time.advance(30_000);
    }
    const answer = `Refactor done.\n\n${Array.from({ length: 40 }, (_, i) => `Details line ${i}.`).join('\n')}\n\nALL-DONE-AFTER-12-MINUTES`;
    card.complete(answer);
    const finalDelivery = card.finalDelivery;
    await time.advance(30_000);
    const final = await finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });

    const [stream, reply, ...more] = bot.emulator.snapshot();
    expect(more).toEqual([]);
    // The stream was polled about once a second for its whole window and showed the run as it went:
    // at the window's close it held the tool started in minute 5 and said the result follows.
    expect(stream!.kind).toBe('stream');
    expect(stream!.polls).toBeGreaterThanOrEqual(300);
    expect(stream!.finished).toBe(true);
    expect(stream!.expiredWith).toBeUndefined();
    expect(stream!.text).toContain('make step-5');
    expect(stream!.text).not.toContain('make step-6');
    expect(stream!.text).toContain('complete result follows as a new message');
    expect(stream!.calls.filter((call) => call.op === 'update').length).toBeGreaterThan(5);
    // The final went out once, through the user message's response_url, with the whole answer.
    expect(reply!.kind).toBe('reply');
    expect(reply!.id).toBe(final.message!.id);
    // The complete answer, every line once and in order.
    expect(reply!.text).toContain(answer);
    expect(reply!.text).toContain('make step-11');
    expect(reply!.calls).toEqual([expect.objectContaining({ op: 'send', refused: false })]);
    expect(bot.logger.entries.filter((e) => e.level === 'error')).toEqual([]);
    await bot.cards.shutdown();
    await bot.emulator.close();
  });

  it('a run inside the window ends in its stream: finish with the answer, no response_url post', async () => {
    const time = fakeTime(vi);
    const bot = inProcessBot();
    await bot.emulator.sendUserMessage({ userid: 'lisi', text: 'hi' });
    const { card } = bot.opened[0]!;
    card.start({ title: 'Short' });
    card.toolStarted('a', 'read_file', { path: 'a.ts' });
    await time.advance(3000);
    card.complete('SHORT-ANSWER');
    const finalDelivery = card.finalDelivery;
    await time.advance(5000);
    expect(await finalDelivery).toMatchObject({ ok: true, freshMessage: false });
    const [stream, ...more] = bot.emulator.snapshot();
    expect(more).toEqual([]);
    expect(stream).toMatchObject({ kind: 'stream', finished: true });
    expect(stream!.text).toContain('SHORT-ANSWER');
    // Polling stopped with the finish.
    const polls = stream!.polls;
    await time.advance(10_000);
    expect(bot.emulator.snapshot()[0]!.polls).toBe(polls);
    await bot.cards.shutdown();
    await bot.emulator.close();
  });

  it('a stream WeCom drops (846608) before the end: the final follows through response_url, once', async () => {
    const time = fakeTime(vi);
    const bot = inProcessBot({ pollGoneAfterMs: 5000 });
    const { streamId } = (await bot.emulator.sendUserMessage({ userid: 'wangwu', text: 'deploy' })) as { streamId: string };
    const { card } = bot.opened[0]!;
    card.start({ title: 'Deploy' });
    card.toolStarted('d', 'shell', { command: './deploy.sh' });
    await time.advance(3000);
    bot.emulator.drop(streamId);
    await time.advance(60_000);
    card.complete('Deployed.');
    const finalDelivery = card.finalDelivery;
    await time.advance(20_000);
    expect(await finalDelivery).toMatchObject({ ok: true, freshMessage: true });
    const [stream, reply] = bot.emulator.snapshot();
    expect(stream!.expiredWith).toBe(846608);
    expect(reply!.text).toContain('Deployed.');
    await bot.cards.shutdown();
    await bot.emulator.close();
  });
});
