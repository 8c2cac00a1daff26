import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DINGTALK_APP, createManualClock, startDingTalkEmulator, type DingTalkEmulator } from '../src/index.js';
import { call, groupCard, token } from './dingtalk-client.js';

let emulator: DingTalkEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('DingTalk emulator: access tokens', () => {
  it('issues one token per app, the same while valid, with expireIn 7200 s', async () => {
    emulator = await startDingTalkEmulator();
    const first = await call(emulator, 'POST', '/v1.0/oauth2/accessToken', DEFAULT_DINGTALK_APP);
    const second = await call(emulator, 'POST', '/v1.0/oauth2/accessToken', DEFAULT_DINGTALK_APP);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accessToken: expect.any(String), expireIn: 7200 });
    expect(second.body.accessToken).toBe(first.body.accessToken);
  });

  it('refuses a wrong secret with 400 invalidClientIdOrSecret and never records the secret', async () => {
    emulator = await startDingTalkEmulator();
    const answer = await call(emulator, 'POST', '/v1.0/oauth2/accessToken', { appKey: DEFAULT_DINGTALK_APP.appKey, appSecret: 'wrong-secret' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ requestid: expect.any(String), code: 'invalidClientIdOrSecret', message: '无效的clientId或者clientSecret' });
    expect(JSON.stringify(emulator.calls())).not.toContain('wrong-secret');
    expect(JSON.stringify(emulator.calls())).not.toContain(DEFAULT_DINGTALK_APP.appSecret);
  });

  it('answers 400 InvalidAuthentication for a missing, unknown, revoked or expired token', async () => {
    const clock = createManualClock(1_000_000);
    emulator = await startDingTalkEmulator({ clock });
    const expectInvalid = async (t: string | undefined, id: string) => {
      const answer = await call(emulator!, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard(id), t);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'InvalidAuthentication', message: '不合法的access_token', requestid: expect.any(String) });
      expect(answer.headers.get('x-acs-request-id')).toBe(answer.body.requestid);
    };
    await expectInvalid(undefined, 'a');
    await expectInvalid('not-a-token', 'b');

    const t1 = await token(emulator);
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('c'), t1)).status).toBe(200);
    expect(emulator.revokeTokens(t1)).toBe(1);
    await expectInvalid(t1, 'd');

    const t2 = await token(emulator);
    expect(t2).not.toBe(t1);
    clock.advance(7200 * 1000);
    await expectInvalid(t2, 'e');
    const t3 = await token(emulator);
    expect(t3).not.toBe(t2);
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('f'), t3)).status).toBe(200);
    expect(emulator.cards().map((c) => c.outTrackId)).toEqual(['c', 'f']);
  });

  it('extends a token that is asked for again while valid', async () => {
    const clock = createManualClock(0);
    emulator = await startDingTalkEmulator({ clock, tokenTtlSeconds: 100 });
    const t = await token(emulator);
    clock.advance(90_000);
    expect(await token(emulator)).toBe(t);
    clock.advance(90_000); // 180 s after the first issue, 90 s after the renewal
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('x'), t)).status).toBe(200);
  });

  it('answers a body that is not JSON with 400 Missingbody', async () => {
    emulator = await startDingTalkEmulator();
    const answer = await call(emulator, 'POST', '/v1.0/oauth2/accessToken', 'appKey=a&appSecret=b');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('Missingbody');
  });

  it('answers an unknown path with 404 error.notFound', async () => {
    emulator = await startDingTalkEmulator();
    const answer = await call(emulator, 'POST', '/v1.0/card/nope', {});
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'error.notFound', message: '接口路径错误 /v1.0/card/nope' });
  });
});
