import { DEFAULT_TELEGRAM_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { statusLine } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

let h: InProcess | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const events = [
  { at: 0, type: 'run.started', title: 'Explain the lexer' },
  { at: 10, type: 'tool.started', callId: 'c1', name: 'read_file', args: '{"path":"src/lexer.ts"}' },
  { at: 1000, type: 'tool.finished', callId: 'c1', summary: '120 lines' },
  { at: 1100, type: 'answer.delta', text: 'The lexer reads ' },
  { at: 2000, type: 'answer.delta', text: 'one token at a time; ' },
  { at: 3000, type: 'answer.delta', text: '`a < b` is a **comparison**.' },
  { at: 3500, type: 'run.completed' },
];

// Fake time, the emulator in process (in-process.ts) with Telegram's own one message a second per
// chat: the card's edits and the draft are paced to the millisecond, with no loaded machine's jitter.
describe('Telegram private chat: the answer streams as a draft and is persisted with sendMessage', () => {
  it('the card holds status, tools and footer; the answer is a live draft while it grows and one message at the end', async () => {
    h = inProcess();
    const card = h.cards.open('telegram');
    await h.play(card, events);
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    await h.settle(h.cards.idle());
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    // the draft was shown while the answer grew (at least one draft before the end)
    const drafts = h.emulator.draftLog(BOT.privateChat);
    expect(drafts.length).toBeGreaterThanOrEqual(1);
    expect(drafts[0]!.text).toMatch(/^The lexer reads/);
    expect(new Set(drafts.map((d) => d.draftId)).size).toBe(1);
    // ... and no draft is left: the persisted message replaced it
    expect(h.emulator.drafts(BOT.privateChat)).toEqual([]);
    const [cardMessage, answer, ...more] = h.emulator.messages({ chatId: BOT.privateChat });
    expect(more).toEqual([]);
    expect(statusLine(cardMessage)).toMatch(/Completed/);
    expect(cardMessage!.text).toContain('read_file');
    expect(cardMessage!.text).toContain('the answer follows below');
    expect(cardMessage!.text).not.toContain('comparison');
    expect(answer!.text).toBe('The lexer reads one token at a time; a < b is a comparison.');
    expect(answer!.source).toContain('<code>a &lt; b</code> is a <b>comparison</b>.');
    expect(answer!.replyTo).toBe(cardMessage!.messageId);
  });

  it('a chat that refuses drafts (TEXTDRAFT_PEER_INVALID) gets an ordinary message, edited as the answer grows', async () => {
    h = inProcess();
    h.emulator.faults.add({ route: 'sendMessageDraft', respond: { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: TEXTDRAFT_PEER_INVALID' } } });
    const card = h.cards.open('telegram');
    await h.play(card, events);
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    await h.settle(h.cards.idle());
    expect(h.emulator.calls({ route: 'sendMessageDraft' })).toHaveLength(1);
    const [, answer] = h.emulator.messages({ chatId: BOT.privateChat });
    expect(answer!.text).toBe('The lexer reads one token at a time; a < b is a comparison.');
  });

  it('a user who blocked the bot: the card gives up after the 403 instead of retrying', async () => {
    h = inProcess();
    h.emulator.blockBot(BOT.privateChat);
    const card = h.cards.open('telegram');
    await h.play(card, events);
    const final = await h.settle(card.finalDelivery);
    expect(final.ok).toBe(false);
    await h.settle(h.cards.idle());
    const sends = () => h!.emulator.calls().filter((x) => x.route !== 'getMe');
    const calls = sends().length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(sends().every((x) => x.msg === 'Forbidden: bot was blocked by the user')).toBe(true);
    // no retry loop: nothing more once the final gave up
    await h.time.advance(1500);
    expect(sends()).toHaveLength(calls);
    expect(h.emulator.messages()).toEqual([]);
  });
});
