import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FEISHU_APP, startDingTalkEmulator, startFeishuEmulator, type DingTalkEmulator, type FeishuEmulator } from '../src/index.js';
import { call, groupCard, token } from './dingtalk-client.js';

let dingtalk: DingTalkEmulator | undefined;
let feishu: FeishuEmulator | undefined;
afterEach(async () => {
  await Promise.all([dingtalk?.close(), feishu?.close()]);
});

describe('DingTalk emulator beside the Feishu one', () => {
  it('runs in the same process on its own port with its own state', async () => {
    [dingtalk, feishu] = await Promise.all([startDingTalkEmulator(), startFeishuEmulator()]);
    expect(dingtalk.baseUrl).not.toBe(feishu.baseUrl);
    const t = await token(dingtalk);
    expect((await call(dingtalk, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('both'), t)).status).toBe(200);
    const lark = await fetch(`${feishu.baseUrl}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: DEFAULT_FEISHU_APP.appId, app_secret: DEFAULT_FEISHU_APP.appSecret }),
    });
    expect(((await lark.json()) as { code: number }).code).toBe(0);
    expect(dingtalk.cards()).toHaveLength(1);
    expect(feishu.messages()).toHaveLength(0);
    // a DingTalk path on the Feishu server is not served there
    expect((await fetch(`${feishu.baseUrl}/v1.0/card/instances`, { method: 'PUT' })).status).toBe(404);
  });
});
