import { createProgressCards, type ProgressCards } from '@progresscard/core';
import { fakeTime, recordingLogger, type FakeTime } from '@progresscard/core/testing';
import { DEFAULT_TELEGRAM_BOT as BOT, createTelegramEmulator, type TelegramEmulatorCore } from '@progresscard/emulator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { telegram } from '../src/index.js';

// Fake time: the emulator runs in process (its Hono app answers the plugin's fetch calls, no
// sockets) on the faked clock, so a minute of a run takes no wall time.
// A draft is "a temporary 30-second preview" that must be persisted with sendMessage
// (https://core.telegram.org/bots/api#sendmessagedraft): the emulator drops it 30 s after its last update.

const API_ROOT = 'http://telegram.test';
let emulator: TelegramEmulatorCore;
let cards: ProgressCards;
let time: FakeTime;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
  time = fakeTime(vi);
  emulator = createTelegramEmulator({ clock: () => Date.now() });
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => emulator.app.fetch(new Request(String(input).replace(API_ROOT, 'http://127.0.0.1'), init)));
  const plugin = telegram({ botToken: BOT.botToken, chatId: BOT.privateChat, apiRoot: API_ROOT, locale: 'en' }, { env: {} });
  cards = createProgressCards({ channels: [plugin], logger: recordingLogger(), env: {} });
});

afterEach(async () => {
  let closed = false;
  const closing = cards.shutdown().finally(() => (closed = true));
  for (let i = 0; i < 60 && !closed; i++) await time.advance(1_000);
  await closing;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('Telegram private chat: a long answer keeps its draft on screen', () => {
  it('the answer pauses for two minutes mid-stream: the draft is never gone for the user, and is one message at the end', async () => {
    const card = cards.open('telegram');
    card.start({ title: 'Write the report' });
    card.answer('The first half of the report. ');
    await time.advance(5_000);
    expect(emulator.drafts(BOT.privateChat).map((d) => d.text)).toEqual(['The first half of the report.']);
    // The model works silently for two minutes (a slow upstream, a tool call between two answer parts).
    let gone = 0;
    for (let s = 0; s < 120; s++) {
      await time.advance(1_000);
      if (emulator.drafts(BOT.privateChat).length === 0) gone++;
    }
    expect(gone).toBe(0);
    card.answer('The second half.');
    card.complete();
    await time.advance(10_000);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'completed' });
    expect(emulator.calls({ outcome: 'rejected' })).toEqual([]);
    expect(emulator.drafts(BOT.privateChat)).toEqual([]);
    const [cardMessage, answer, ...more] = emulator.messages({ chatId: BOT.privateChat });
    expect(more).toEqual([]);
    expect(cardMessage!.text).toMatch(/Completed/);
    expect(answer!.text).toBe('The first half of the report. The second half.');
    expect(answer!.replyTo).toBe(cardMessage!.messageId);
    // Every refresh of the draft came within 30 s of the one before.
    const draftTimes = emulator.calls({ route: 'sendMessageDraft' }).map((call) => call.at);
    for (let i = 1; i < draftTimes.length; i++) expect(draftTimes[i]! - draftTimes[i - 1]!).toBeLessThan(30_000);
    // Persisted: the draft is not shown again.
    await time.advance(60_000);
    expect(emulator.calls({ route: 'sendMessageDraft' })).toHaveLength(draftTimes.length);
    expect(emulator.drafts(BOT.privateChat)).toEqual([]);
  });
});
