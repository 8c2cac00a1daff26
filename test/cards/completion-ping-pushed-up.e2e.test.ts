/**
 * The completion ping is on by default for a card that later messages pushed up the chat, over the
 * emulators (real loopback HTTP): people write in the chat while the run goes on; when the final
 * lands, a short reply mentioning the requester shows at the bottom of the chat (Slack: a thread reply
 * broadcast to the channel). A card still at the bottom of the chat gets no reply.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DEFAULT_SLACK_WORKSPACE, startFeishuEmulator, startSlackEmulator, type FeishuEmulator, type SlackEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';

let slackEmulator: SlackEmulator | undefined;
let feishuEmulator: FeishuEmulator | undefined;
let cards: ProgressCards | undefined;

afterEach(async () => {
  await cards?.shutdown();
  await slackEmulator?.close();
  await feishuEmulator?.close();
});

async function compose(config: Record<string, unknown> = {}): Promise<ProgressCards> {
  slackEmulator = await startSlackEmulator();
  cards = createProgressCards({
    logger: silentLogger,
    env: {},
    channels: [slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: slackEmulator.apiUrl, debounceMs: 50, ...config })],
  });
  return cards;
}

/** A short run; `chatter` people's messages arrive in the channel while it runs. */
async function run(composed: ProgressCards, chatter: number, options: Parameters<ProgressCards['open']>[2] = {}): Promise<string> {
  const card = composed.open('slack', undefined, { requester: { id: 'U0ALICE' }, ...options });
  card.start({ title: 'Fix the flaky test' });
  card.toolStarted('call_1', 'shell', '{"command":"npm test"}');
  await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
  for (let i = 0; i < chatter; i++) slackEmulator!.postUserMessage(DEFAULT_SLACK_WORKSPACE.channel, `lunch? ${i}`);
  card.toolFinished('call_1', '212 passed');
  card.complete('All tests pass.');
  const final = await card.finalDelivery;
  expect(final).toMatchObject({ ok: true, status: 'completed' });
  await composed.shutdown();
  return final.message!.id;
}


describe('completion ping for a card pushed up the chat', () => {
  it('replies under the latest message, mentioning the requester, once 3 messages came after the card', { timeout: 60_000 }, async () => {
    const cardTs = await run(await compose(), 3);
    const replies = slackEmulator!.messages({ threadTs: cardTs });
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toMatch(/^<@U0ALICE> ✅ Completed in \d+s: Fix the flaky test$/);
    // Broadcast: the reply also shows in the channel, under the people's messages.
    const call = slackEmulator!.calls({ route: 'chat.postMessage' }).at(-1)!;
    expect(call.request).toMatchObject({ thread_ts: cardTs, reply_broadcast: 'true' });
  });

  it('stays quiet for a card still at the bottom of the chat, and when the chat turns it off', { timeout: 60_000 }, async () => {
    const inView = await run(await compose(), 2);
    expect(slackEmulator!.messages({ threadTs: inView })).toEqual([]);
    await slackEmulator!.close();

    const off = await run(await compose(), 5, { completionPing: false });
    expect(slackEmulator!.messages({ threadTs: off })).toEqual([]);
    await slackEmulator!.close();

    // A chat with a lower threshold.
    const lower = await run(await compose(), 1, { completionPing: { pushedUpBy: 1 } });
    expect(slackEmulator!.messages({ threadTs: lower })).toHaveLength(1);
  });
});

describe('completion ping for a card pushed up a Feishu chat', () => {
  it('replies to the card once 3 messages came after it, and not when fewer did', { timeout: 60_000 }, async () => {
    feishuEmulator = await startFeishuEmulator({ apps: [{ appId: 'cli_ping', appSecret: 'ping-secret' }] });
    cards = createProgressCards({
      logger: silentLogger,
      env: {},
      channels: [feishu({ appId: 'cli_ping', appSecret: 'ping-secret', domain: feishuEmulator.baseUrl, receiveId: 'oc_team', debounceMs: 50 })],
    });
    const runWith = async (chatter: number): Promise<string> => {
      const card = cards!.open('feishu', undefined, { requester: { id: 'ou_alice', name: 'Alice' }, locale: 'en' });
      card.start({ title: 'Fix the flaky test' });
      await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
      const chatId = feishuEmulator!.message(card.message!.id)!.chatId;
      for (let i = 0; i < chatter; i++) feishuEmulator!.postUserMessage({ chatId, text: `lunch? ${i}` });
      card.complete('All tests pass.');
      const final = await card.finalDelivery;
      expect(final).toMatchObject({ ok: true, status: 'completed' });
      return final.message!.id;
    };
    const pushedUp = await runWith(3);
    const inView = await runWith(0);
    await cards.shutdown();
    const repliesTo = (id: string) => feishuEmulator!.messages().filter((m) => m.parentId === id && m.msgType === 'text');
    expect(repliesTo(pushedUp)).toHaveLength(1);
    expect(JSON.parse(repliesTo(pushedUp)[0]!.content as string).text).toMatch(/^<at user_id="ou_alice">Alice<\/at> ✅ Completed in \d+s: Fix the flaky test$/);
    expect(repliesTo(inView)).toEqual([]);
  });
});
