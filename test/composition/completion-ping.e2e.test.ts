/**
 * The completion ping and the progressive switch over the real transports and emulators (loopback
 * HTTP): Feishu replies to the card with a text message that @-mentions the requester; DingTalk's
 * robot posts a plain message in the group. Switches come from env variables, as an operator sets them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, DEFAULT_FEISHU_APP, startDingTalkEmulator, startFeishuEmulator, type DingTalkEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';

let feishuEmulator: FeishuEmulator | undefined;
let dingtalkEmulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;

afterEach(async () => {
  await cards?.shutdown();
  await feishuEmulator?.close();
  await dingtalkEmulator?.close();
});

async function compose(env: Record<string, string>) {
  feishuEmulator = await startFeishuEmulator();
  dingtalkEmulator = await startDingTalkEmulator();
  cards = createProgressCards({
    logger: silentLogger,
    env,
    channels: [
      feishu.fromEnv({}, { env: { ...env, FEISHU_APP_ID: DEFAULT_FEISHU_APP.appId, FEISHU_APP_SECRET: DEFAULT_FEISHU_APP.appSecret, FEISHU_CHAT_ID: 'oc_team', FEISHU_DOMAIN: feishuEmulator.baseUrl } }),
      dingtalk(
        { appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: DEFAULT_DINGTALK_APP.appSecret, baseUrl: dingtalkEmulator.baseUrl, cardTemplateId: 'tpl.schema', target: { type: 'group', openConversationId: 'cidTeam==' } },
        { env },
      ),
    ],
  });
  return cards;
}

describe('completion ping over the emulators', () => {
  it('replies once per card after a run longer than the threshold, never for a short one', async () => {
    const composed = await compose({ FEISHU_CARD_COMPLETION_PING_MS: '0', DINGTALK_CARD_COMPLETION_PING_MS: '0' });
    const requester = { id: 'ou_alice', name: 'Alice' };
    const f = composed.open('feishu', undefined, { requester });
    const d = composed.open('dingtalk', undefined, { requester });
    for (const card of [f, d]) {
      card.start({ title: 'Nightly build', locale: 'en' });
      card.complete('Build fixed.');
    }
    await Promise.all([f.finalDelivery, d.finalDelivery]);
    await composed.shutdown();

    const replies = feishuEmulator!.messages().filter((m) => m.msgType === 'text');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.parentId).toBe((await f.finalDelivery).message!.id);
    expect(JSON.parse(replies[0]!.content).text).toMatch(/^<at user_id="ou_alice">Alice<\/at> ✅ Completed in 0s: Nightly build$/);

    const robot = dingtalkEmulator!.robotMessages();
    expect(robot).toHaveLength(1);
    expect(robot[0]).toMatchObject({ openConversationId: 'cidTeam==', msgKey: 'sampleText' });
    expect(robot[0]!.msgParam.content).toBe('@Alice ✅ Completed in 0s: Nightly build');
  });

  it('with FEISHU_CARD_PROGRESSIVE=off the chat sees one card, sent with the final state', async () => {
    const composed = await compose({ FEISHU_CARD_PROGRESSIVE: 'off' });
    const card = composed.open('feishu');
    card.start({ title: 'Quiet', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(feishuEmulator!.messages()).toEqual([]);
    card.toolFinished('c1', 'passed');
    card.complete('All green.');
    expect((await card.finalDelivery).ok).toBe(true);
    const calls = feishuEmulator!.calls().filter((call) => !call.route.startsWith('auth.'));
    // One send (a CardKit card, the default, creates its entity first) and no update.
    expect(calls.map((call) => call.route)).toEqual(['cardkit.card.create', 'im.message.create']);
    expect(JSON.stringify(feishuEmulator!.messages()[0]!.card)).toContain('All green.');
  });
});
