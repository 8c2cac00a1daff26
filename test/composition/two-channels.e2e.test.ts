/**
 * One composition with Feishu and DingTalk over their emulators (real loopback HTTP, real SDKs):
 * each channel keeps its own settings, shows live tool lines and delivers every final. Timing
 * (ticks, budgets) is asserted on fake time in channel-independence.test.ts, never here in wall time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, startFeishuEmulator, type DingTalkEmulator, type FeishuEmulator } from '@progresscard/emulator';
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

async function compose(env: Record<string, string> = {}) {
  feishuEmulator = await startFeishuEmulator({ apps: [{ appId: 'cli_two_channels', appSecret: 'two-channels-secret' }] });
  dingtalkEmulator = await startDingTalkEmulator();
  cards = createProgressCards({
    logger: silentLogger,
    env,
    channels: [
      feishu({ appId: 'cli_two_channels', appSecret: 'two-channels-secret', domain: feishuEmulator.baseUrl, receiveId: 'oc_team', tickMs: 1000, budget: [{ limit: 4, intervalMs: 1000 }] }),
      dingtalk({
        appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: DEFAULT_DINGTALK_APP.appSecret, baseUrl: dingtalkEmulator.baseUrl,
        cardTemplateId: '382e4302-551d-4880-bf29-a30acfab2e71.schema', target: { type: 'group', openConversationId: 'cidTeam==' },
        tickMs: 2500, budget: [{ limit: 2, intervalMs: 1000 }],
      }),
    ],
  });
  return cards;
}

describe('Feishu and DingTalk in one composition', () => {
  it('each channel shows the running tool live, then its final answer', async () => {
    const cards = await compose();
    expect(cards.settings('feishu').tickMs).toBe(1000);
    expect(cards.settings('dingtalk').tickMs).toBe(2500);
    const onFeishu = cards.open('feishu', undefined, { locale: 'en' });
    const onDingTalk = cards.open('dingtalk', undefined, { locale: 'en' });
    for (const card of [onFeishu, onDingTalk]) card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    // Each platform accepts a card whose running time has advanced: the ticks reach both (however late).
    const shown = (bodies: unknown[]) => bodies.some((body) => /running · [1-9]\d*s/.test(JSON.stringify(body)));
    // Every card a Feishu message accepted (CardKit updates of the default mode, or patches).
    const feishuBodies = () => feishuEmulator!.messages().flatMap((m) => m.history.filter((call) => call.outcome === 'accepted').map((call) => call.card));
    // The content reaches DingTalk through the AI-card streaming API.
    const dingtalkBodies = () => dingtalkEmulator!.calls({ route: 'card.streaming', outcome: 'accepted' }).map((call) => call.request);
    await expect.poll(() => shown(feishuBodies()), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => shown(dingtalkBodies()), { timeout: 15_000 }).toBe(true);
    for (const card of [onFeishu, onDingTalk]) {
      card.toolFinished('c1', '212 passed');
      card.complete('All tests pass.');
    }
    const [feishuFinal, dingtalkFinal] = await Promise.all([onFeishu.finalDelivery, onDingTalk.finalDelivery]);
    expect(feishuFinal).toMatchObject({ ok: true, status: 'completed' });
    expect(dingtalkFinal).toMatchObject({ ok: true, status: 'completed' });
    expect(JSON.stringify(feishuEmulator!.message(feishuFinal.message!.id)!.card)).toContain('All tests pass.');
    expect(JSON.stringify(dingtalkEmulator!.cards()[0])).toContain('All tests pass.');
  });

  it('env overrides one channel without touching the other', async () => {
    const cards = await compose({ DINGTALK_CARD_TOOL_TICK_MS: '700' });
    expect(cards.settings('dingtalk').tickMs).toBe(700);
    expect(cards.settings('feishu').tickMs).toBe(1000);
  });

  it('a burst on both channels delivers every final, one message per card', async () => {
    const cards = await compose();
    const burst = [
      ...Array.from({ length: 6 }, () => cards.open('feishu')),
      ...Array.from({ length: 4 }, () => cards.open('dingtalk')),
    ];
    for (const [i, card] of burst.entries()) card.complete(`answer ${i}`);
    const finals = await Promise.all(burst.map((card) => card.finalDelivery));
    expect(finals.map((final) => final.ok)).toEqual(burst.map(() => true));
    const feishuAnswers = feishuEmulator!.messages().map((m) => /answer (\d)/.exec(JSON.stringify(m.card))?.[1]);
    const dingtalkAnswers = dingtalkEmulator!.cards().map((c) => /answer (\d)/.exec(JSON.stringify(c.cardData))?.[1]);
    expect(feishuAnswers.sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(dingtalkAnswers.sort()).toEqual(['6', '7', '8', '9']);
  });
});
