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

  it('an old signed callback re-sent with an empty or malformed timestamp (the old one moved into the nonce) is refused', async () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0);
    server = new FeishuHttpCallbacks({ host: '127.0.0.1', port: 0, path: '/feishu/card-callback', encryptKey: ENCRYPT_KEY, now: () => now, render: () => ({}) as never });
    await server.start(() => {
      throw new Error('no click expected');
    });
    const body = JSON.stringify({ schema: '2.0', header: { event_type: 'im.message.receive_v1' }, event: {} });
    const oldTimestamp = String(now / 1000 - 60 * 60);
    // The captured request signed timestamp + nonce = "<old>nonce-1"; split differently, it still matches.
    const signature = createHash('sha256').update(`${oldTimestamp}nonce-1${ENCRYPT_KEY}${body}`).digest('hex');
    for (const [timestamp, nonce] of [
      ['', `${oldTimestamp}nonce-1`],
      [oldTimestamp.slice(0, 3), `${oldTimestamp.slice(3)}nonce-1`],
      [`${oldTimestamp}n`, 'once-1'],
    ]) {
      const answer = await fetch(server.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-lark-request-timestamp': timestamp!, 'x-lark-request-nonce': nonce!, 'x-lark-signature': signature },
        body,
      });
      expect(answer.status, `timestamp ${JSON.stringify(timestamp)}`).toBe(401);
    }
  });

  it('without a verification token or encrypt key, what a page on another site could post (foreign Origin, text/plain) is refused (403)', async () => {
    server = new FeishuHttpCallbacks({ host: '127.0.0.1', port: 0, path: '/feishu/card-callback', render: () => ({}) as never });
    await server.start(() => {
      throw new Error('no click expected');
    });
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c-1' });
    expect((await fetch(server.url!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })).status).toBe(403);
    expect((await fetch(server.url!, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body })).status).toBe(403);
    const plain = await fetch(server.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await plain.json()).toEqual({ challenge: 'c-1' });
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
