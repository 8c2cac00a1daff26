import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { f05Answer } from './views.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const REPLY = 'im.message.reply';

async function longRun(harnessed: Harness) {
  const card = harnessed.cards.open('feishu', undefined, { locale: 'en' });
  await harnessed.play(card, [
    { at: 0, type: 'run.started', title: 'Long answer' },
    { at: 10, type: 'answer.delta', text: f05Answer() },
    { at: 500, type: 'run.completed' },
  ]);
  return card.finalDelivery;
}

describe('follow-up cards of a long answer', () => {

  it('a follow-up that fails twice is retried and sent once; the main card stays one message', async () => {
    h = await harness({ scale: 10 });
    h.emulator.faults.add({ route: REPLY, nth: 1, respond: { status: 500, body: { code: 500, msg: 'internal error' } } });
    h.emulator.faults.add({ route: REPLY, nth: 2, respond: { status: 500, body: { code: 500, msg: 'internal error' } } });
    const final = await longRun(h);
    await h.cards.idle();
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const [main, ...replies] = h.emulator.messages();
    expect(main!.messageId).toBe(final.message!.id);
    expect(replies.length).toBeGreaterThanOrEqual(1);
    expect(replies.every((reply) => reply.parentId === main!.messageId)).toBe(true);
    expect(new Set(replies.map((reply) => reply.uuid)).size).toBe(replies.length);
  }, 30_000);


  it('follow-ups that keep failing never duplicate the main card', async () => {
    h = await harness({ scale: 10 });
    h.emulator.faults.add({ route: REPLY, respond: { status: 500, body: { code: 500, msg: 'internal error' } } });
    const final = await longRun(h);
    await h.cards.idle();
    expect(final).toMatchObject({ ok: false, status: 'completed', freshMessage: false, error: expect.stringMatching(/^continuation parts? [\d, ]+ of \d+ undeliverable$/) });
    // The final says which parts are missing instead of claiming they arrived.
    expect(final.continuations.delivered).toBeLessThan(final.continuations.total);
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
  }, 30_000);
});
