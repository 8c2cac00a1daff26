import { DEFAULT_TELEGRAM_BOT as BOT } from '@progresscard/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcess, type InProcess } from './in-process.js';

// Fake time, the emulator in process (in-process.ts): two minutes of a run take no wall time.
// A draft is "a temporary 30-second preview" that must be persisted with sendMessage
// (https://core.telegram.org/bots/api#sendmessagedraft): the emulator drops it 30 s after its last update.

let t: InProcess;
beforeEach(() => {
  t = inProcess();
});
afterEach(() => t.close());

describe('Telegram private chat: a long answer keeps its draft on screen', () => {
  it('the answer pauses for two minutes mid-stream: the draft is never gone for the user, and is one message at the end', async () => {
    const card = t.cards.open('telegram');
    card.start({ title: 'Write the report' });
    card.answer('The first half of the report. ');
    await t.time.advance(5_000);
    expect(t.emulator.drafts(BOT.privateChat).map((d) => d.text)).toEqual(['The first half of the report.']);
    // The model works silently for two minutes (a slow upstream, a tool call between two answer parts).
    let gone = 0;
    for (let s = 0; s < 120; s++) {
      await t.time.advance(1_000);
      if (t.emulator.drafts(BOT.privateChat).length === 0) gone++;
    }
    expect(gone).toBe(0);
    card.answer('The second half.');
    card.complete();
    await expect(t.settle(card.finalDelivery)).resolves.toMatchObject({ ok: true, status: 'completed' });
    expect(t.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    expect(t.emulator.drafts(BOT.privateChat)).toEqual([]);
    const [cardMessage, answer, ...more] = t.emulator.messages({ chatId: BOT.privateChat });
    expect(more).toEqual([]);
    expect(cardMessage!.text).toMatch(/Completed/);
    expect(answer!.text).toBe('The first half of the report. The second half.');
    expect(answer!.replyTo).toBe(cardMessage!.messageId);
    // Every refresh of the draft came within 30 s of the one before.
    const draftTimes = t.emulator.calls({ route: 'sendMessageDraft' }).map((call) => call.at);
    for (let i = 1; i < draftTimes.length; i++) expect(draftTimes[i]! - draftTimes[i - 1]!).toBeLessThan(30_000);
    // Persisted: the draft is not shown again.
    await t.time.advance(60_000);
    expect(t.emulator.calls({ route: 'sendMessageDraft' })).toHaveLength(draftTimes.length);
    expect(t.emulator.drafts(BOT.privateChat)).toEqual([]);
  });
});
