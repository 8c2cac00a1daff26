import { afterEach, describe, expect, it } from 'vitest';
import { DINGTALK_FAILED_STATE_FALLBACK_TEXT, startDingTalkEmulator, type DingTalkEmulator } from '../src/index.js';
import { call, groupCard, token } from './dingtalk-client.js';

let emulator: DingTalkEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const stream = (e: DingTalkEmulator, t: string, outTrackId: string, content: string, extra: Record<string, unknown> = {}) =>
  call(e, 'PUT', '/v1.0/card/streaming', { outTrackId, guid: `g-${Math.random()}`, key: 'msgContent', content, isFull: true, ...extra }, t);
const put = (e: DingTalkEmulator, t: string, outTrackId: string, cardParamMap: Record<string, string>) =>
  call(e, 'PUT', '/v1.0/card/instances', { outTrackId, cardData: { cardParamMap }, cardUpdateOptions: { updateCardDataByKey: true } }, t);

describe('DingTalk emulator: template model (every call answers 200, the card a user sees differs)', () => {
  it('streaming switch on (default): content written only as card data shows nothing; streamed content shows', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('s1'), t);
    expect((await put(emulator, t, 's1', { msgContent: 'as card data' })).status).toBe(200);
    expect(emulator.card('s1')!.display).toMatchObject({ content: '', problem: 'not-streamed' });
    expect((await stream(emulator, t, 's1', 'streamed **text**')).status).toBe(200);
    expect(emulator.card('s1')!.display).toEqual({ state: 'inputting', content: 'streamed **text**' });
  });

  it('streaming switch off: card data shows', async () => {
    emulator = await startDingTalkEmulator({ template: { streamingSwitch: false } });
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('s2'), t);
    await put(emulator, t, 's2', { msgContent: 'as card data', flowStatus: '3' });
    expect(emulator.card('s2')!.display).toEqual({ state: 'finished', content: 'as card data' });
  });

  it('the failed state is off by default: a failed card shows the fallback text, not the error', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('f1'), t);
    await stream(emulator, t, 'f1', '❌ deploy failed', { isError: true });
    expect(emulator.card('f1')!.display).toEqual({ state: 'failed', content: DINGTALK_FAILED_STATE_FALLBACK_TEXT, problem: 'failed-state-disabled' });
  });

  it('with the failed state enabled, a failed card shows its content', async () => {
    emulator = await startDingTalkEmulator({ template: { failedStateEnabled: true } });
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('f2'), t);
    await stream(emulator, t, 'f2', '❌ deploy failed', { isError: true });
    expect(emulator.card('f2')!.display).toEqual({ state: 'failed', content: '❌ deploy failed' });
  });

  it('a variable above 3 000 code points renders a blank card, with a 200', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('b1'), t);
    expect((await stream(emulator, t, 'b1', '字'.repeat(3001))).status).toBe(200);
    expect(emulator.card('b1')!.display).toMatchObject({ content: '', problem: 'blank-too-long' });
    await stream(emulator, t, 'b1', '字'.repeat(3000));
    expect(emulator.card('b1')!.display.content).toHaveLength(3000);
  });
});

describe('DingTalk emulator: monthly quota', () => {
  it('past the quota every metered call answers 403 ApiCountLimitForOrg; the token route is exempt', async () => {
    emulator = await startDingTalkEmulator({ monthlyQuota: 3 });
    const t = await token(emulator);
    expect((await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('m1'), t)).status).toBe(200);
    expect((await put(emulator, t, 'm1', { flowStatus: '2' })).status).toBe(200);
    expect((await stream(emulator, t, 'm1', 'x')).status).toBe(200);
    const over = await put(emulator, t, 'm1', { flowStatus: '3' });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('Forbidden.AccessDenied.ApiCountLimitForOrg');
    expect((await stream(emulator, t, 'm1', 'y')).body.code).toBe('Forbidden.AccessDenied.ApiCountLimitForOrg');
    expect((await call(emulator, 'POST', '/v1.0/oauth2/accessToken', { appKey: emulator.apps[0]!.appKey, appSecret: emulator.apps[0]!.appSecret })).status).toBe(200);
    expect(emulator.card('m1')!.cardData.flowStatus).toBe('2');
  });
});

describe('DingTalk emulator: answers that are not a success', () => {
  it('answerResultFalse: a 200 with result false applies nothing', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    await call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('r1'), t);
    emulator.answerResultFalse({ outTrackId: 'r1', times: 1 });
    const answer = await put(emulator, t, 'r1', { msgContent: 'lost' });
    expect(answer).toMatchObject({ status: 200, body: { success: true, result: false } });
    expect(emulator.card('r1')!.cardData.msgContent).toBe('hello');
  });

  it('a fault may answer a non-JSON page (the per-IP ban)', async () => {
    emulator = await startDingTalkEmulator();
    const t = await token(emulator);
    emulator.faults.add({ route: 'card.update', respond: { status: 200, body: '<html><body>denied</body></html>' } });
    const response = await fetch(`${emulator.baseUrl}/v1.0/card/instances`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-acs-dingtalk-access-token': t },
      body: JSON.stringify({ outTrackId: 'x', cardData: { cardParamMap: {} } }),
    });
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('<html>');
  });
});
