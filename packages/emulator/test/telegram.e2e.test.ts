import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock, DEFAULT_TELEGRAM_BOT as BOT, startTelegramEmulator, type TelegramEmulator } from '../src/index.js';

let emulator: TelegramEmulator | undefined;
let server: Server | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function call(method: string, args: Record<string, unknown>, token: string = BOT.botToken) {
  const response = await fetch(`${emulator!.apiRoot}/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
  return { status: response.status, body: (await response.json()) as { ok: boolean; result?: Record<string, unknown>; description?: string; error_code?: number; parameters?: { retry_after?: number } } };
}

describe('Telegram Bot API emulator', () => {
  it('sends and edits an HTML message, says "not modified" for an identical edit and "not found" once deleted', async () => {
    emulator = await startTelegramEmulator({ limits: { perChatWindows: [{ limit: 10, intervalMs: 1000 }] } });
    const sent = await call('sendMessage', { chat_id: BOT.groupChat, message_thread_id: BOT.topic, text: '<b>Running</b> a &lt; b', parse_mode: 'HTML' });
    expect(sent.body.ok).toBe(true);
    const id = sent.body.result!.message_id as number;
    expect(emulator.message(BOT.groupChat, id)).toMatchObject({ text: 'Running a < b', threadId: BOT.topic });
    const edited = await call('editMessageText', { chat_id: BOT.groupChat, message_id: id, text: '<b>Done</b>', parse_mode: 'HTML' });
    expect(edited.body.ok).toBe(true);
    const same = await call('editMessageText', { chat_id: BOT.groupChat, message_id: id, text: '<b>Done</b>', parse_mode: 'HTML' });
    expect(same).toMatchObject({ status: 400, body: { description: expect.stringMatching(/^Bad Request: message is not modified/) } });
    emulator.deleteMessage(BOT.groupChat, id);
    const gone = await call('editMessageText', { chat_id: BOT.groupChat, message_id: id, text: 'x' });
    expect(gone.body.description).toBe('Bad Request: message to edit not found');
  });

  it('an edit the client gave up on is still applied after its injected latency: a late apply, over a newer edit (F17)', async () => {
    emulator = await startTelegramEmulator({ limits: { perChatWindows: [{ limit: 10, intervalMs: 1000 }], perGroupWindows: [{ limit: 10, intervalMs: 1000 }] } });
    const sent = await call('sendMessage', { chat_id: BOT.groupChat, text: 'one' });
    const id = sent.body.result!.message_id as number;
    // 5 s: the newer edit lands first even on a busy machine.
    const slow = emulator.faults.add({ route: 'editMessageText', nth: 1, latencyMs: 5000 });
    const edit = (text: string, signal?: AbortSignal) => fetch(`${emulator!.apiRoot}/bot${BOT.botToken}/editMessageText`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: BOT.groupChat, message_id: id, text }), signal });
    // The client gives up once the emulator has the request (its fault matched), not after a fixed
    // time that, on a busy machine, could pass before the request was even sent.
    const giveUp = new AbortController();
    const older = edit('two (older)', giveUp.signal);
    await vi.waitFor(() => expect(emulator!.faults.list().find((rule) => rule.id === slow)?.hits).toBe(1), { timeout: 30_000, interval: 10 });
    giveUp.abort();
    await expect(older).rejects.toThrow();
    expect((await call('editMessageText', { chat_id: BOT.groupChat, message_id: id, text: 'three (newer)' })).body.ok).toBe(true);
    expect(emulator.message(BOT.groupChat, id)!.text).toBe('three (newer)');
    for (const until = Date.now() + 45_000; emulator.message(BOT.groupChat, id)!.text !== 'two (older)' && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
    // No version on an edit: the late one replaces the newer text.
    expect(emulator.message(BOT.groupChat, id)!.text).toBe('two (older)');
    const [late] = emulator.calls({ route: 'editMessageText' }).filter((c) => c.card && (c.card as { text: string }).text === 'two (older)');
    expect(late!.at - late!.receivedAt!).toBeGreaterThanOrEqual(4_990); // a timer may fire a millisecond early
  }, 60_000);

  it('refuses what Telegram refuses: bad HTML, > 4096 characters, 65-byte callback_data, unknown chat, unknown topic, bad token', async () => {
    emulator = await startTelegramEmulator();
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'a <x> b', parse_mode: 'HTML' })).body.description).toMatch(/^Bad Request: can't parse entities/);
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'a'.repeat(4097) })).body.description).toBe('Bad Request: message is too long');
    const keyboard = { inline_keyboard: [[{ text: 'Stop', callback_data: 'x'.repeat(65) }]] };
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'hi', reply_markup: keyboard })).body.description).toBe('Bad Request: BUTTON_DATA_INVALID');
    expect((await call('sendMessage', { chat_id: 99, text: 'hi' })).body).toMatchObject({ error_code: 400, description: 'Bad Request: chat not found' });
    expect((await call('sendMessage', { chat_id: BOT.groupChat, message_thread_id: 7, text: 'hi' })).body.description).toBe('Bad Request: message thread not found');
    expect((await call('getMe', {}, '1:wrong')).status).toBe(401);
    expect(emulator.messages()).toEqual([]);
  });

  it('flood control answers 429 with parameters.retry_after; a blocked user answers 403', async () => {
    emulator = await startTelegramEmulator();
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'one' })).body.ok).toBe(true);
    const second = await call('sendMessage', { chat_id: BOT.privateChat, text: 'two' });
    expect(second).toMatchObject({ status: 429, body: { description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } } });
    emulator.blockBot(BOT.privateChat);
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'three' })).body).toMatchObject({ error_code: 403, description: 'Forbidden: bot was blocked by the user' });
  });

  it('counts a call in the flood windows when it arrives, not when its slow answer leaves (as the Bot API counts)', async () => {
    const clock = createManualClock(1_000_000);
    emulator = await startTelegramEmulator({ clock });
    const arrived = async (faultId: string) => {
      while ((emulator!.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // One message a second in a private chat. A slow send arrives in a fresh window; a second later (on
    // the emulator's clock) another arrives while the first is still being answered: both pass.
    const slow = emulator.faults.add({ route: 'sendMessage', times: 1, latencyMs: 300 });
    const first = call('sendMessage', { chat_id: BOT.privateChat, text: 'one' });
    await arrived(slow);
    clock.advance(1001);
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'two' })).status).toBe(200);
    expect((await first).status).toBe(200);
    // The other way round: a slow send that arrives in a full window is refused though it is answered after it.
    clock.advance(60_000);
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'three' })).status).toBe(200);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'sendMessage', times: 1, latencyMs: 300 });
    const inFullWindow = call('sendMessage', { chat_id: BOT.privateChat, text: 'four' });
    await arrived(late);
    clock.advance(1000);
    expect((await inFullWindow).status).toBe(429);
  });

  it('drafts: private chats only, replaced by the next message, read back after they vanished', async () => {
    emulator = await startTelegramEmulator();
    expect((await call('sendMessageDraft', { chat_id: BOT.groupChat, draft_id: 1, text: 'x' })).body.description).toBe('Bad Request: TEXTDRAFT_PEER_INVALID');
    expect((await call('sendMessageDraft', { chat_id: BOT.privateChat, draft_id: 7, text: 'Reading <i>files</i>', parse_mode: 'HTML' })).body).toEqual({ ok: true, result: true });
    expect(emulator.drafts(BOT.privateChat)).toMatchObject([{ draftId: 7, text: 'Reading files' }]);
    expect((await call('sendMessage', { chat_id: BOT.privateChat, text: 'Reading files, done' })).body.ok).toBe(true);
    expect(emulator.drafts(BOT.privateChat)).toEqual([]);
    expect(emulator.draftLog(BOT.privateChat)).toHaveLength(1);
  });

  it('a button press reaches the webhook with the secret token and waits for answerCallbackQuery', async () => {
    emulator = await startTelegramEmulator();
    const seen: { secret?: string; data?: string }[] = [];
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const update = JSON.parse(body) as { callback_query: { id: string; data: string } };
        seen.push({ secret: request.headers['x-telegram-bot-api-secret-token'] as string | undefined, data: update.callback_query.data });
        response.end('');
        void call('answerCallbackQuery', { callback_query_id: update.callback_query.id, text: 'Stopping' });
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    emulator.setWebhook({ url: `http://127.0.0.1:${port}/tg`, secretToken: 's3cret' });
    const sent = await call('sendMessage', { chat_id: BOT.privateChat, text: 'card', reply_markup: { inline_keyboard: [[{ text: 'Stop', callback_data: 'pc|c1|stop|stop' }]] } });
    const result = await emulator.click({ chatId: BOT.privateChat, messageId: sent.body.result!.message_id as number, button: 'Stop', userId: 42 });
    expect(result).toMatchObject({ status: 200, answer: { text: 'Stopping' } });
    expect(seen).toEqual([{ secret: 's3cret', data: 'pc|c1|stop|stop' }]);
    // a second answer to the same query is refused
    expect((await call('answerCallbackQuery', { callback_query_id: result.callbackQueryId })).body.description).toMatch(/query is too old/);
  });
});
