/**
 * DingTalk HTTP card callbacks over loopback: the signature covers only the timestamp, so a signed
 * pair of headers is bound to the first body it came with; an unverified server refuses what a
 * browser on another site could send.
 */
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import type { ClickHandler, ControlClick } from '@progresscard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { DingTalkHttpCallbacks } from '../src/interaction/http-callbacks.js';

const API_SECRET = 'card-callback-secret';
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

let server: DingTalkHttpCallbacks | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function start(apiSecret: string | undefined): Promise<{ url: string; clicks: ControlClick[] }> {
  const clicks: ControlClick[] = [];
  server = new DingTalkHttpCallbacks({
    host: '127.0.0.1',
    port: 0,
    path: '/dingtalk/card-callback',
    ...(apiSecret ? { apiSecret } : {}),
    contentKey: 'msgContent',
    render: () => ({ cardParamMap: {} }) as never,
    register: async () => undefined,
    now: () => NOW,
  });
  const onClick: ClickHandler = (click) => {
    clicks.push(click);
    return { message: 'ok' } as ReturnType<ClickHandler>;
  };
  await server.start(onClick);
  return { url: server.url!, clicks };
}

/** The body DingTalk posts when `userId` presses the Approve button of a card. */
function clickBody(userId: string): string {
  const params = { pc: '1', card: 'card-1', interaction: 'q-1', option: 'approve' };
  return JSON.stringify({ outTrackId: 'track-1', userId, content: JSON.stringify({ cardPrivateData: { params } }) });
}

function signedHeaders(timestamp: number): Record<string, string> {
  const sign = createHmac('sha256', API_SECRET).update(`${timestamp}\n${API_SECRET}`).digest('base64');
  return { 'content-type': 'application/json', timestamp: String(timestamp), sign };
}

/** POSTs over node:http (fetch will not send a `Host` of our choosing); resolves with the status. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0 }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('DingTalk HTTP card callbacks: signed headers bound to their body', () => {
  it("a bystander's signed headers re-sent with a forged body (the owner's approval) are refused; DingTalk's retry of the same body is taken", async () => {
    const { url, clicks } = await start(API_SECRET);
    const headers = signedHeaders(NOW - 1000);
    expect((await post(url, headers, clickBody('u_bystander'))).status).toBe(200);
    expect((await post(url, headers, clickBody('u_owner'))).status).toBe(401);
    expect((await post(url, headers, clickBody('u_bystander'))).status).toBe(200);
    expect(clicks.map((click) => click.user.id)).toEqual(['u_bystander', 'u_bystander']);
    // A fresh signature from DingTalk carries the owner's own click.
    expect((await post(url, signedHeaders(NOW - 500), clickBody('u_owner'))).status).toBe(200);
    expect(clicks.at(-1)?.user.id).toBe('u_owner');
  });
});

describe('DingTalk HTTP card callbacks without apiSecret: cross-site requests refused', () => {
  it('a foreign Origin, a text/plain or form body, or a foreign Host get 403 and click nothing; a plain JSON post is taken', async () => {
    const { url, clicks } = await start(undefined);
    const port = new URL(url).port;
    const body = clickBody('u_owner');
    expect((await post(url, { 'content-type': 'application/json', origin: 'https://evil.example' }, body)).status).toBe(403);
    expect((await post(url, { 'content-type': 'text/plain' }, body)).status).toBe(403);
    expect((await post(url, { 'content-type': 'application/x-www-form-urlencoded' }, body)).status).toBe(403);
    expect((await post(url, { 'content-type': 'application/json', host: `rebind.evil.example:${port}` }, body)).status).toBe(403);
    expect(clicks).toEqual([]);
    expect((await post(url, { 'content-type': 'application/json; charset=utf-8' }, body)).status).toBe(200);
    expect((await post(url, { 'content-type': 'application/json', host: `localhost:${port}` }, body)).status).toBe(200);
    expect(clicks).toHaveLength(2);
  });
});
