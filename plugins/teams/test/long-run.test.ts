import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { shownText } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

// Fake time, the emulator in process (in-process.ts) with Teams' documented limits: the streams' two
// minutes and the per-conversation windows (7 / 1 s, 8 / 2 s, 60 / 30 s, 1 800 / h) run on the faked clock.

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A 12-minute run: a tool call every 3 minutes, one numbered sentence every 20 s, then the end. */
function twelveMinutes(): { events: Record<string, unknown>[]; answer: string } {
  const events: Record<string, unknown>[] = [{ at: 0, type: 'run.started', title: 'Migrate the billing tables' }];
  let answer = '';
  for (let i = 0; i < 36; i += 1) {
    const at = 1_000 + i * 20_000;
    if (i % 9 === 0) events.push({ at, type: 'tool.started', callId: `t${i}`, name: 'shell', args: '{"command":"psql -f step.sql"}' });
    if (i % 9 === 4) events.push({ at, type: 'tool.finished', callId: `t${i - 4}`, summary: 'ok' });
    const sentence = `Step ${i} done. `;
    answer += sentence;
    events.push({ at: at + 1, type: 'answer.delta', text: sentence });
  }
  events.push({ at: 722_000, type: 'run.completed' });
  return { events, answer };
}

// Minutes of faked time through the in-process emulator: seconds of CPU, more on a busy machine.
describe('a 12-minute run on the Teams emulator ends with its complete answer visible', { timeout: 30_000 }, () => {
  it('1:1 chat: the native stream rolls over past the two-minute life; the text complete and in order across streams, the final shown', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat } });
    const card = t.cards.open('teams', undefined, { requester: { id: '29:1owner', name: 'Owner' } });
    const { events, answer } = twelveMinutes();
    await t.play(card, events);
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const streams = t.emulator.activities({ conversationId: BOT.personalChat }).filter((a) => a.stream);
    // Twelve minutes in streams of at most two: at least six, each opened after the one before closed.
    expect(streams.length).toBeGreaterThanOrEqual(6);
    for (const stream of streams) expect(stream.stream!.state).toBe('final');
    for (const [i, stream] of streams.entries()) if (i > 0) expect(stream.createdAt).toBeGreaterThanOrEqual(streams[i - 1]!.updatedAt);
    for (const stream of streams) expect(stream.updatedAt - stream.createdAt).toBeLessThan(120_000);
    // Every character once, in order, across the streams.
    expect(streams.map((s) => s.stream!.text).join('')).toBe(answer);
    // The last stream's final carries the card: completed, with the tool calls; the earlier ones say the text goes on.
    const last = shownText(streams.at(-1)!);
    expect(last).toMatch(/Completed/);
    expect(last).toContain('Step 35 done.');
    for (const stream of streams.slice(0, -1)) expect(shownText(stream)).toContain('Continued in the next message');
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
    expect(t.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('group chat: one Adaptive Card sent and updated in place for 12 minutes, within the conversation windows; the final shows the whole answer', async () => {
    t = inProcess();
    const card = t.cards.open('teams');
    const { events, answer } = twelveMinutes();
    await t.play(card, events);
    const final = await t.settle(card.finalDelivery);
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = t.emulator.activities({ conversationId: BOT.groupChat });
    expect(more).toEqual([]);
    expect(message!.id).toBe(final.message!.id);
    expect(message!.stream).toBeUndefined();
    expect(message!.updates).toBeGreaterThan(20);
    const shown = shownText(message!);
    expect(shown).toMatch(/Completed/);
    expect(shown).toContain(answer.trim());
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
    expect(t.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
