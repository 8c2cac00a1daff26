/**
 * One composition with Feishu and DingTalk over their emulators (real loopback HTTP, real SDKs):
 * each channel keeps its own tick interval and its own API budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, startFeishuEmulator, type DingTalkEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let feishuEmulator: FeishuEmulator | undefined;
let dingtalkEmulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;

afterEach(async () => {
  await cards?.shutdown();
  await feishuEmulator?.close();
  await dingtalkEmulator?.close();
});

/** The most calls in any window of `windowMs` among `times`. */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

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
  it('each channel ticks at its own interval', async () => {
    const cards = await compose();
    expect(cards.settings('feishu').tickMs).toBe(1000);
    expect(cards.settings('dingtalk').tickMs).toBe(2500);
    const onFeishu = cards.open('feishu', undefined, { locale: 'en' });
    const onDingTalk = cards.open('dingtalk', undefined, { locale: 'en' });
    for (const card of [onFeishu, onDingTalk]) card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    await sleep(5300);
    // The running times each platform accepted: every second on Feishu, every 2.5 s on DingTalk.
    const shown = (bodies: unknown[]) => new Set(bodies.flatMap((body) => [...JSON.stringify(body).matchAll(/running · (\d+)s/g)].map((m) => Number(m[1]))));
    const feishuShown = shown(feishuEmulator!.calls({ route: 'im.message.patch' }).filter((call) => call.outcome === 'accepted').map((call) => call.card));
    const dingtalkShown = shown(dingtalkEmulator!.calls({ route: 'card.update', outcome: 'accepted' }).map((call) => call.request));
    expect([...feishuShown].sort()).toEqual([1, 2, 3, 4, 5]);
    expect([...dingtalkShown].sort()).toEqual([2, 5]);
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

  it('each channel spends its own budget: a burst on one never slows or exceeds the other', async () => {
    const cards = await compose();
    // Warm up: both channels fetch their tokens first, so the burst measures only card calls.
    const warmUp = [cards.open('feishu'), cards.open('dingtalk')];
    warmUp.forEach((card) => card.complete('warm'));
    await Promise.all(warmUp.map((card) => card.finalDelivery));
    const since = Date.now();
    const burst = [
      ...Array.from({ length: 6 }, () => cards.open('feishu')),
      ...Array.from({ length: 4 }, () => cards.open('dingtalk')),
    ];
    burst.forEach((card, i) => card.complete(`answer ${i}`));
    const finals = await Promise.all(burst.map((card) => card.finalDelivery));
    expect(finals.every((final) => final.ok)).toBe(true);
    const arrivals = (calls: { route: string; at: number; receivedAt?: number }[], tokenRoute: string) =>
      calls.filter((call) => call.route !== tokenRoute).map((call) => call.receivedAt ?? call.at).filter((at) => at >= since);
    const feishuTimes = arrivals(feishuEmulator!.calls(), 'auth.tenant_access_token');
    const dingtalkTimes = arrivals(dingtalkEmulator!.calls(), 'oauth2.accessToken');
    expect(feishuTimes).toHaveLength(6);
    expect(dingtalkTimes.length).toBeGreaterThanOrEqual(4);
    expect(maxInWindow(feishuTimes, 1000)).toBeLessThanOrEqual(4);
    expect(maxInWindow(dingtalkTimes, 1000)).toBeLessThanOrEqual(2);
  });
});
