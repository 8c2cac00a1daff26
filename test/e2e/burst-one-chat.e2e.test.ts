/**
 * Many cards opened at once in one chat, in real time, over loopback HTTP to the emulators: the
 * budgets keep every call within the platform's limits from the very first calls, before any round
 * trip was measured (issue 13: 0 rate-limit rejections, including runs sharing chats).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ChannelPlugin } from '@progresscard/core';
import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, startFeishuEmulator } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface RecordedCall {
  readonly route: string;
  readonly status: number;
  readonly response?: unknown;
}

/** Opens `count` cards at once in the channel's one chat, each with a running tool, then completes them all. */
async function burst(channel: ChannelPlugin, count: number): Promise<void> {
  const cards = createProgressCards({ logger: silentLogger, env: {}, channels: [channel] });
  closers.unshift(() => cards.shutdown({ deadlineMs: 2000 }));
  const opened = Array.from({ length: count }, (_, index) => {
    const card = cards.open(channel.id, undefined, { locale: 'en' });
    card.push({ type: 'run.started', title: `run ${index}` });
    card.push({ type: 'tool.started', callId: 'a', name: 'shell', args: '{"command":"x"}' });
    return card;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const card of opened) {
    card.push({ type: 'tool.finished', callId: 'a' });
    card.push({ type: 'run.completed', answer: 'A'.repeat(100) });
  }
  const finals = await Promise.all(opened.map((card) => card.finalDelivery));
  expect(finals.filter((final) => !final.ok)).toEqual([]);
}

const rejected = (calls: readonly RecordedCall[]) => calls.filter((call) => call.status === 429 || call.status === 403 || JSON.stringify(call.response ?? '').includes('230020'));

describe('a burst of cards in one chat', () => {
  it('Feishu: 40 cards, no call rejected by the per-chat send limit', async () => {
    const app = { appId: 'cli_burst', appSecret: 'burst-secret' };
    const emulator = await startFeishuEmulator({ apps: [app] });
    closers.push(() => emulator.close());
    await burst(feishu({ ...app, domain: emulator.baseUrl, receiveId: 'oc_burst' }), 40);
    expect(rejected(emulator.calls() as RecordedCall[])).toEqual([]);
  }, 60_000);

  it('DingTalk: 60 cards, no call rejected by the per-app-and-API QPS limit', async () => {
    const emulator = await startDingTalkEmulator();
    closers.push(() => emulator.close());
    const channel = dingtalk({
      appKey: DEFAULT_DINGTALK_APP.appKey,
      appSecret: DEFAULT_DINGTALK_APP.appSecret,
      cardTemplateId: 't.schema',
      target: { type: 'group', openConversationId: 'cidBurst==' },
      baseUrl: emulator.baseUrl,
    });
    await burst(channel, 60);
    expect(rejected(emulator.calls() as RecordedCall[])).toEqual([]);
  }, 60_000);
});
