import { fakeTime } from '@progresscard/core/testing';
import { WeComCipher } from '@progresscard/emulator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wecom, wecomCallbacks } from '../src/index.js';
import { BOT, inProcessBot } from './harness.js';

beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-12-01T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('WeCom callbacks are verified, decrypted and never taken twice', () => {
  it('a forged callback (wrong msg_signature) is refused 403 and opens no card', async () => {
    const bot = inProcessBot();
    expect(await bot.emulator.forgeCallback()).toBe(403);
    expect(bot.opened).toEqual([]);
    expect(wecomCallbacks(bot.plugin).refused.map((r) => r.reason)).toEqual(['msg_signature does not match']);
    await bot.emulator.close();
  });

  it('a replayed callback (the same signed request again) is refused 403: the message is answered once', async () => {
    const bot = inProcessBot();
    const sent = await bot.emulator.sendUserMessage({ userid: 'zhangsan', text: 'hello' });
    expect(sent.ok).toBe(true);
    expect(await bot.emulator.replayLastCallback()).toBe(403);
    expect(bot.opened).toHaveLength(1);
    expect(wecomCallbacks(bot.plugin).refused.at(-1)!.reason).toMatch(/replayed/);
    await bot.emulator.close();
  });

  it('a correctly signed callback with a timestamp outside the replay window is refused', async () => {
    const plugin = wecom({ ...BOT, replayWindowMs: 60_000 }, { env: {} });
    const cipher = new WeComCipher(BOT.token, BOT.encodingAESKey);
    const encrypt = cipher.encrypt(JSON.stringify({ msgid: 'm1', aibotid: BOT.botId, msgtype: 'text', from: { userid: 'u' }, text: { content: 'x' } }));
    const timestamp = String(Math.floor(Date.now() / 1000) - 3600);
    const answer = await wecomCallbacks(plugin).handle({ method: 'POST', query: { msg_signature: cipher.sign(timestamp, 'n1', encrypt), timestamp, nonce: 'n1' }, body: JSON.stringify({ encrypt }) });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/timestamp .* outside 60000 ms/);
  });

  it('a callback for another bot (aibotid) is refused when botId is set', async () => {
    const plugin = wecom(BOT, { env: {} });
    const cipher = new WeComCipher(BOT.token, BOT.encodingAESKey);
    const encrypt = cipher.encrypt(JSON.stringify({ msgid: 'm2', aibotid: 'someone-else', msgtype: 'text', from: { userid: 'u' }, text: { content: 'x' } }));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await wecomCallbacks(plugin).handle({ method: 'POST', query: { msg_signature: cipher.sign(timestamp, 'n2', encrypt), timestamp, nonce: 'n2' }, body: JSON.stringify({ encrypt }) });
    expect(answer).toMatchObject({ status: 403 });
  });

  it('the URL check (GET with echostr) answers the decrypted echostr; a bad signature gets 403', async () => {
    const plugin = wecom(BOT, { env: {} });
    const cipher = new WeComCipher(BOT.token, BOT.encodingAESKey);
    const echostr = cipher.encrypt('1616140317555161061');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const callbacks = wecomCallbacks(plugin);
    expect(await callbacks.handle({ method: 'GET', query: { msg_signature: cipher.sign(timestamp, 'n3', echostr), timestamp, nonce: 'n3', echostr }, body: '' })).toEqual({ status: 200, body: '1616140317555161061' });
    expect((await callbacks.handle({ method: 'GET', query: { msg_signature: cipher.sign(timestamp, 'n4', 'other'), timestamp, nonce: 'n4', echostr }, body: '' })).status).toBe(403);
  });

  it('WeCom sending a message callback again (same msgid, new signature) gets the same stream, and no second card', async () => {
    const time = fakeTime(vi);
    const bot = inProcessBot();
    const first = (await bot.emulator.sendUserMessage({ userid: 'zhangsan', text: 'hello' })) as { streamId: string };
    await time.advance(1000);
    expect(await bot.emulator.repeatLastUserMessage()).toBe(first.streamId);
    expect(bot.opened).toHaveLength(1);
    await bot.emulator.close();
  });
});
