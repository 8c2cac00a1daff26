import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { call, card2, fetchToken, sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator;
afterEach(() => emulator?.close());

const TOKEN_PATH = '/open-apis/auth/v3/tenant_access_token/internal';

describe('Feishu emulator: tenant_access_token', () => {
  it('issues a t- token with expire 7200 and returns the same one while 30 min or more are left', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    emulator = await startFeishuEmulator({ clock });
    const app = emulator.apps[0]!;
    const first = await call(emulator, 'POST', TOKEN_PATH, { app_id: app.appId, app_secret: app.appSecret });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: 0, msg: 'ok', expire: 7200 });
    expect(first.body.tenant_access_token).toMatch(/^t-[0-9a-f]{40}$/);
    clock.advance(60 * 60 * 1000); // 1 h later: 1 h left
    const again = await call(emulator, 'POST', TOKEN_PATH, { app_id: app.appId, app_secret: app.appSecret });
    expect(again.body).toMatchObject({ tenant_access_token: first.body.tenant_access_token, expire: 3600 });
    clock.advance(40 * 60 * 1000); // 20 min left: a new token, the old one stays valid
    const fresh = await call(emulator, 'POST', TOKEN_PATH, { app_id: app.appId, app_secret: app.appSecret });
    expect(fresh.body.tenant_access_token).not.toBe(first.body.tenant_access_token);
    expect(emulator.tokens().map((t) => t.state)).toEqual(['active', 'active']);
  });

  it('refuses a wrong secret without a token and never records the secret', async () => {
    emulator = await startFeishuEmulator();
    const app = emulator.apps[0]!;
    const wrong = await call(emulator, 'POST', TOKEN_PATH, { app_id: app.appId, app_secret: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(10015);
    expect(wrong.body.tenant_access_token).toBeUndefined();
    const unknown = await call(emulator, 'POST', TOKEN_PATH, { app_id: 'cli_other', app_secret: app.appSecret });
    expect(unknown.body.code).toBe(10014);
    expect(JSON.stringify(emulator.calls())).not.toContain(app.appSecret);
  });

  it('answers 99991661 without a Bearer header and 99991663 for an unknown token', async () => {
    emulator = await startFeishuEmulator();
    const body = { receive_id: 'oc_1', msg_type: 'interactive', content: JSON.stringify(card2('hi')) };
    const missing = await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body);
    expect([missing.status, missing.body.code, missing.body.msg]).toEqual([400, 99991661, 'Need a token']);
    const malformed = await fetch(`${emulator.baseUrl}/open-apis/im/v1/messages?receive_id_type=chat_id`, {
      method: 'POST',
      headers: { authorization: 't-abc', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(((await malformed.json()) as { code: number }).code).toBe(99991661);
    const bogus = await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body, 't-0000');
    expect([bogus.status, bogus.body.code]).toEqual([400, 99991663]);
  });

  it('can answer auth errors with HTTP 401 instead', async () => {
    emulator = await startFeishuEmulator({ authErrorStatus: 401 });
    const r = await call(emulator, 'PATCH', '/open-apis/im/v1/messages/om_x', { content: '{}' }, 't-0000');
    expect([r.status, r.body.code]).toEqual([401, 99991663]);
  });

  it('serves the official SDK, and a revoked token fails with 99991663 until the SDK fetches a new one', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: 'chat_id' },
      data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2('hello')) },
    });
    expect(sent.code).toBe(0);
    expect(emulator.counts()['auth.tenant_access_token']).toEqual({ calls: 1, accepted: 1, rejected: 0 });
    expect(emulator.revokeTokens()).toBe(1);
    const failure = await sdkFailure(
      client.im.v1.message.patch({ path: { message_id: sent.data!.message_id! }, data: { content: JSON.stringify(card2('again')) } }),
    );
    expect([failure.status, failure.code]).toEqual([400, 99991663]);
    // The SDK caches the token for expire - 3 min and never refreshes on 99991663 (node-sdk `client/token-manager.ts`, https://github.com/larksuite/node-sdk):
    // only a new cache (or clearing it) makes it fetch a new token.
    const refreshed = sdkClient(emulator);
    const ok = await refreshed.im.v1.message.patch({ path: { message_id: sent.data!.message_id! }, data: { content: JSON.stringify(card2('again')) } });
    expect(ok.code).toBe(0);
    expect(emulator.tokens().map((t) => t.state)).toEqual(['revoked', 'active']);
  });

  it('expires tokens on the emulator clock', async () => {
    const clock = createManualClock(0);
    emulator = await startFeishuEmulator({ clock, tokenTtlSeconds: 600 });
    const token = await fetchToken(emulator);
    const body = { receive_id: 'oc_1', msg_type: 'interactive', content: JSON.stringify(card2('x')) };
    expect((await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body, token)).body.code).toBe(0);
    clock.advance(600_000);
    expect((await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body, token)).body.code).toBe(99991663);
    expect(emulator.tokens()[0]!.state).toBe('expired');
  });
});
