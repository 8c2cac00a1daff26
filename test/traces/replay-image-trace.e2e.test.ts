/**
 * A trace with an image result replays through sources → core → the Feishu plugin → the Feishu
 * emulator over loopback: the screenshot is uploaded and shown, the answer's missing local image
 * degrades to its text, and Feishu refuses no card. No bundled real trace holds an image result (see
 * test/traces/fixtures/README.md), so this one is synthetic.
 */
import { fileURLToPath } from 'node:url';
import { createProgressCards, silentLogger, type ProgressCard } from '@progresscard/core';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { readTrace } from '@progresscard/sources';
import { afterEach, describe, expect, it } from 'vitest';

const TRACE = fileURLToPath(new URL('./fixtures/claude-transcript-screenshot.jsonl', import.meta.url));

let emulator: FeishuEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('a trace with an image result', () => {
  it('replays to a Feishu card showing the screenshot and the missing image as its text', async () => {
    emulator = await startFeishuEmulator();
    const app = emulator.apps[0]!;
    const plugin = feishu({ appId: app.appId, appSecret: app.appSecret, domain: emulator.baseUrl, receiveId: 'oc_team', timeZone: 'UTC', debounceMs: 50, tickMs: 200 });
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    let card: ProgressCard | undefined;
    for await (const item of readTrace(TRACE)) {
      if (item.kind === 'error') continue;
      card ??= cards.open('feishu');
      expect(card.push(item.event).accepted).toBe(true);
    }
    const final = await card!.finalDelivery;
    await cards.shutdown();
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [uploaded] = emulator.images();
    const body = JSON.stringify(emulator.message(final.message!.id)!.card);
    expect(body).toContain(`"img_key":"${uploaded!.imageKey}"`);
    expect(body).toContain('[图片: login diff]');
    expect(body).not.toContain('base64');

    // The DingTalk card of the same run names both images.
    const ding = dingtalk({ appKey: 'dingrender', appSecret: 'x', cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cid==' } });
    const content = ding.renderer.render(card!.view()).cardParamMap.msgContent!;
    expect(content).toContain('[图片: image]');
    expect(content).toContain('[图片: login diff]');
  });
});
