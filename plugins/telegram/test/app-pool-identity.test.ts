/**
 * An app pool of three Telegram bots [A, B, C] deployed as [A, C] while two runs are stored (the
 * process killed): pool apps are named by position, so C's stored channel `telegram-app3` is
 * `telegram-app2` now, B's `telegram-app2` names C. Each bot's id (the number before its token's
 * colon) is stored with its cards: C's card is finished on its own message through C; B's card goes
 * on as a fresh message through its chat's bot now, and no bot tries to edit another bot's message
 * (the emulator refuses that, like Telegram). Fake time; the emulator answers in process; the
 * in-memory card store is shared by the two "processes".
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPool, createProgressCards, InMemoryBudgetStore, InMemoryCardStore, silentLogger, type ChannelPlugin, type ProgressCardsStore } from '@progresscard/core';
import { createTelegramEmulator } from '@progresscard/emulator';
import { telegram } from '../src/index.js';

const API_ROOT = 'http://telegram.test';
const TOKENS = { a: '111:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', b: '222:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', c: '333:CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC' };
const CHATS = Array.from({ length: 40 }, (_, i) => 5_000 + i);
const LEASE_MS = 3000;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const bot = (token: string) => telegram({ botToken: token, chatId: CHATS[0]!, apiRoot: API_ROOT, drafts: false, locale: 'en' }, { env: {} });
const options = (store: ProgressCardsStore) => ({ store, logger: silentLogger, env: {}, leaseTtlMs: LEASE_MS, orphanGraceMs: 10_000 });

/** A chat the pool of `apps` gives to `app` first. */
function chatOf(apps: readonly ChannelPlugin[], app: ChannelPlugin): number {
  const chat = CHATS.find((each) => appPool(apps).rank(each)[0]!.appIdentity === app.appIdentity);
  if (chat === undefined) throw new Error(`no chat goes to ${app.appIdentity}`);
  return chat;
}

describe('Telegram app pool losing its middle bot: the stored bot id decides, not the position', () => {
  it("C's card is finished on its own message through C; B's card goes on as a fresh message; no bot edits another's message", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const emulator = createTelegramEmulator({ clock: () => Date.now(), botTokens: Object.values(TOKENS), chats: CHATS.map((id) => ({ id, type: 'private' as const })) });
    vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => emulator.app.fetch(new Request(String(input).replace(API_ROOT, 'http://127.0.0.1'), init)));
    const store = { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
    const [a, b, c] = [bot(TOKENS.a), bot(TOKENS.b), bot(TOKENS.c)];
    const chats = { b: chatOf([a, b, c], b), c: chatOf([a, b, c], c) };

    const first = createProgressCards({ channels: [appPool([a, b, c])], ...options(store) });
    for (const [run, chat] of [['run-b', chats.b], ['run-c', chats.c]] as const) {
      const card = first.open('telegram', chat, { runId: run, locale: 'en', title: `Deploy ${run}` });
      card.toolStarted('c1', 'shell', { command: 'make' });
    }
    await vi.advanceTimersByTimeAsync(5000);
    const stored = await store.cards.list();
    expect(stored.map((card) => [card.channelId, card.appIdentity]).sort()).toEqual([
      ['telegram-app2', '222'],
      ['telegram-app3', '333'],
    ]);
    const sent = emulator.messages();
    expect(sent.map((message) => message.sentBy).sort()).toEqual(['222', '333']);
    // kill -9: the first process's timers are gone, its cards stay in the store.
    const now = Date.now();
    vi.clearAllTimers();
    vi.setSystemTime(now);

    const [a2, c2] = [bot(TOKENS.a), bot(TOKENS.c)];
    const second = createProgressCards({ channels: [appPool([a2, c2])], ...options(store) });
    const resuming = [second.resume('run-b'), second.resume('run-c')];
    await vi.advanceTimersByTimeAsync(LEASE_MS + 1000);
    const resumed = await Promise.all(resuming);
    for (const card of resumed) {
      card.toolFinished('c1', 'built');
      card.complete('Deployed.');
    }
    await vi.advanceTimersByTimeAsync(20_000);
    for (const card of resumed) expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await second.shutdown();

    expect(emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const byChat = (chat: number) => emulator.messages({ chatId: chat });
    // C's message, finished in place by C.
    const cMessages = byChat(chats.c);
    expect(cMessages).toHaveLength(1);
    expect(cMessages[0]).toMatchObject({ sentBy: '333' });
    expect(cMessages[0]!.text).toContain('Deployed.');
    // B's message stays as B left it; the final is a fresh message from a bot of the pool now.
    const bMessages = byChat(chats.b);
    expect(bMessages).toHaveLength(2);
    const bBefore = sent.find((message) => message.chatId === chats.b)!;
    expect(bMessages[0]).toMatchObject({ sentBy: '222', edits: bBefore.edits, text: bBefore.text });
    expect(bMessages[0]!.text).not.toContain('Deployed.');
    expect(['111', '333']).toContain(bMessages[1]!.sentBy);
    expect(bMessages[1]!.text).toContain('Deployed.');
  });
});
