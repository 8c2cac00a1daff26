/**
 * The calls a card counts against a platform's quota (`FinalDelivery.calls`: what the quota
 * footer and `runCallCap` are based on) equal the API requests the platform received for it:
 * Feishu CardKit (entity create + message send, stream writes, update + settings at the final),
 * DingTalk (createAndDeliver + streaming PUT, instance PUTs) and Slack. Token requests are left
 * out on both sides (whether the platforms meter them is not documented).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, DEFAULT_SLACK_WORKSPACE, startDingTalkEmulator, startFeishuEmulator, startSlackEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { slack } from '@progresscard/plugin-slack';
import { setTimeout as sleep } from 'node:timers/promises';

const closers: (() => Promise<void>)[] = [];
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  for (const close of closers.splice(0)) await close();
});

const isAuth = (route: string) => /token|auth/i.test(route);

/** A run with a tool, streamed text over a few ticks and a final answer; resolves its final delivery. */
async function run(channelId: string) {
  const card = cards!.open(channelId, undefined, { locale: 'en' });
  card.toolStarted('c1', 'shell', { command: 'npm test' });
  for (let i = 0; i < 4; i += 1) {
    await sleep(700);
    card.answer(`step ${i}. `);
  }
  card.toolFinished('c1', '212 passed');
  card.complete('All tests pass.');
  return card.finalDelivery;
}

describe('quota counted in platform calls', () => {
  it('Feishu CardKit: the card counts every request the platform received', async () => {
    const app = { appId: 'cli_quota_calls', appSecret: 'quota-secret' };
    const emulator = await startFeishuEmulator({ apps: [app] });
    closers.push(() => emulator.close());
    cards = createProgressCards({ logger: silentLogger, env: {}, channels: [feishu({ ...app, domain: emulator.baseUrl, receiveId: 'oc_quota', mode: 'cardkit', tickMs: 500 })] });
    const final = await run('feishu');
    expect(final).toMatchObject({ ok: true });
    const requests = emulator.calls().filter((call) => !isAuth(call.route));
    expect(requests.map((call) => call.route)).toContain('cardkit.card.create');
    expect(final.calls).toBe(requests.length);
  }, 60_000);

  it('DingTalk: createAndDeliver and the streaming PUTs all count', async () => {
    const emulator = await startDingTalkEmulator();
    closers.push(() => emulator.close());
    cards = createProgressCards({
      logger: silentLogger, env: {},
      channels: [dingtalk({
        appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: DEFAULT_DINGTALK_APP.appSecret, baseUrl: emulator.baseUrl,
        cardTemplateId: '382e4302-551d-4880-bf29-a30acfab2e71.schema', target: { type: 'group', openConversationId: 'cidQuota==' }, tickMs: 1000,
      })],
    });
    const final = await run('dingtalk');
    expect(final).toMatchObject({ ok: true });
    const requests = emulator.calls().filter((call) => !isAuth(call.route));
    expect(requests.map((call) => call.route)).toContain('card.streaming');
    expect(final.calls).toBe(requests.length);
  }, 60_000);

  it('Slack: one request per send and update, all counted', async () => {
    const emulator = await startSlackEmulator();
    closers.push(() => emulator.close());
    cards = createProgressCards({
      logger: silentLogger, env: {},
      channels: [slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: emulator.apiUrl, tickMs: 1000 })],
    });
    const final = await run('slack');
    expect(final).toMatchObject({ ok: true });
    const requests = emulator.calls().filter((call) => !isAuth(call.route));
    expect(requests.length).toBeGreaterThan(1);
    expect(final.calls).toBe(requests.length);
  }, 60_000);
});
