import { afterEach, describe, expect, it } from 'vitest';
import { blockText, harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Fix the build' },
  { at: 10, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  { at: 1_500, type: 'tool.finished', callId: 'c1', summary: '12 passed' },
  { at: 1_600, type: 'answer.delta', text: 'Fixed: the import path was wrong.' },
  { at: 1_700, type: 'run.completed' },
];

describe('Slack: missing scope and a thread chat.postMessage cannot reply to (over loopback)', () => {
  it("chat.postMessage's cannot_reply_to_message for the triggering message: the card goes into the channel", async () => {
    h = await harness({ scale: 10 });
    h.emulator.faults.add({ route: 'chat.postMessage', nth: 1, respond: { status: 200, body: { ok: false, error: 'cannot_reply_to_message' } } });
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: '1721609600.123456', inThread: true } });
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const messages = h.emulator.messages();
    expect(messages.map((m) => [m.ts, m.threadTs])).toEqual([[final.message!.id, undefined]]);
    expect(blockText(messages[0]!.blocks, 'answer_')).toContain('Fixed: the import path was wrong.');
  });

  it('a token without chat:write produces one error for the channel naming the scope, not one retry ladder per card', async () => {
    h = await harness({ scale: 10, emulator: { missingScopes: ['chat:write'] } });
    const cards = [1, 2, 3].map(() => h!.cards.open('slack'));
    await Promise.all(cards.map((card) => h!.play(card, RUN)));
    const finals = await Promise.all(cards.map((card) => card.finalDelivery));

    for (const final of finals) expect(final).toMatchObject({ ok: false, error: expect.stringMatching(/^slack lacks permission scope chat:write/) });
    // Cards sending at the same moment may each meet the refusal once; none retries it.
    expect(h.emulator.calls({ route: 'chat.postMessage' }).length).toBeLessThanOrEqual(3);
    const problems = h.logger.lines.filter((line) => /^(warn|error)/.test(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^error slack: the app lacks permission scope chat:write: send stops for every card/);
  });
});
