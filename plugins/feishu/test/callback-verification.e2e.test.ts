import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { feishu, FeishuHttpCallbacks } from '../src/index.js';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
let server: FeishuHttpCallbacks | undefined;
afterEach(async () => {
  await h?.close();
  await server?.stop();
  h = undefined;
  server = undefined;
});

const ENCRYPT_KEY = 'encrypt-key-1';

/** POSTs `body` signed with the encrypt key at `timestampSeconds`, as Feishu signs callbacks. */
function signedPost(url: string, body: string, timestampSeconds: number): Promise<Response> {
  const timestamp = String(timestampSeconds);
  const nonce = 'nonce-1';
  const signature = createHash('sha256').update(timestamp + nonce + ENCRYPT_KEY + body).digest('hex');
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lark-request-timestamp': timestamp, 'x-lark-request-nonce': nonce, 'x-lark-signature': signature },
    body,
  });
}

describe('Feishu HTTP card callbacks: verification', () => {
  it('a correctly signed callback older than 5 minutes is refused as a replay (401); a fresh one is taken', async () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0);
    server = new FeishuHttpCallbacks({ host: '127.0.0.1', port: 0, path: '/feishu/card-callback', encryptKey: ENCRYPT_KEY, now: () => now, render: () => ({}) as never });
    await server.start(() => {
      throw new Error('no click expected');
    });
    const body = JSON.stringify({ schema: '2.0', header: { event_type: 'im.message.receive_v1' }, event: {} });
    expect((await signedPost(server.url!, body, now / 1000 - 6 * 60)).status).toBe(401);
    expect((await signedPost(server.url!, body, now / 1000 - 60)).status).toBe(200);
  });

  it('HTTP callbacks without a verification token or encrypt key log one warning when they start', async () => {
    h = await harness({ scale: 10, plugin: { callbacks: { mode: 'http', port: 0 } } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    card.start({ title: 'Deploy' });
    void card.requestApproval({ prompt: 'Deploy?', timeoutMs: 60_000 });
    const until = Date.now() + 5000;
    const warned = () => h!.logger.lines.some((line) => line.includes('without verification'));
    while (!warned() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.logger.lines.filter((line) => line.includes('without verification'))).toEqual([expect.stringMatching(/^warn channel feishu: .*FEISHU_CALLBACK_VERIFICATION_TOKEN/)]);
    card.complete('done');
    await card.finalDelivery;
  });

  it('no warning once a verification token or an encrypt key is set', () => {
    const base = { appId: 'cli_x', appSecret: 's', receiveId: 'oc_x' };
    expect(feishu({ ...base, callbacks: { mode: 'http', port: 0, verificationToken: 't' } }).interaction!.warnings).toEqual([]);
    expect(feishu({ ...base, callbacks: { mode: 'http', port: 0, encryptKey: 'k' } }).interaction!.warnings).toEqual([]);
    expect(feishu({ ...base, callbacks: { mode: 'http', port: 0 } }).interaction!.warnings).toEqual([expect.stringContaining('without verification')]);
  });
});
