import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DINGTALK_APP, type DingTalkEmulator } from '@progresscard/emulator';
import { dingtalk } from '../../src/index.js';
import { DingTalkApiError, DingTalkDeliveryError } from '../../src/transport/errors.js';
import { outTrackIdFor } from '../../src/transport/transport.js';
import { GROUP, TEMPLATE_ID, payload, setup } from '../helpers.js';

let emulator: DingTalkEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('DingTalk transport ↔ emulator', () => {
  it('creates and delivers a group card with outTrackId from the idempotency key and the robot as deliverer', async () => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: undefined, payload: payload('hello'), idempotencyKey: 'run-1-0', replacing: false });
    expect(ref.id).toBe('pc-run-1-0');
    const card = emulator.card('pc-run-1-0')!;
    expect(card).toMatchObject({ cardTemplateId: TEMPLATE_ID, openSpaceId: 'dtv1.card//IM_GROUP.cidGroup42==', state: 'inputting' });
    expect(card.cardData).toEqual({ msgTitle: 'T', msgContent: 'hello', flowStatus: '2' });
    expect(card.history[0]!.request).toMatchObject({ imGroupOpenDeliverModel: { robotCode: DEFAULT_DINGTALK_APP.appKey } });
  });

  it('delivers to a user 1:1 chat through IM_ROBOT when the card names that target', async () => {
    const s = await setup({ robotCode: 'dingRobot1' });
    emulator = s.emulator;
    await s.plugin.transport.send({ target: { type: 'user', userId: 'staff007' }, payload: payload('hi'), idempotencyKey: 'k', replacing: false });
    const card = emulator.card('pc-k')!;
    expect(card.spaces).toEqual([expect.objectContaining({ spaceType: 'IM_ROBOT', spaceId: 'staff007', delivery: 'delivered' })]);
    expect(card.history[0]!.request).toMatchObject({ imRobotOpenDeliverModel: { spaceType: 'IM_ROBOT', robotCode: 'dingRobot1' } });
  });

  it('updates by key: data it does not send stays on the card', async () => {
    const s = await setup({ cardParams: { logo: '@lALPx' } });
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: { cardParamMap: { logo: '@lALPx', msgContent: 'a', flowStatus: '2' }, streamEnd: 'open' }, idempotencyKey: 'u', replacing: false });
    await s.plugin.transport.update({ message: ref, payload: payload('b', '3'), final: true });
    expect(emulator.card(ref.id)).toMatchObject({ cardData: { logo: '@lALPx', msgContent: 'b', flowStatus: '3', msgTitle: 'T' }, state: 'finished' });
    const update = emulator.card(ref.id)!.history.find((h) => h.route === 'card.update')!;
    expect(update.request).toMatchObject({ cardUpdateOptions: { updateCardDataByKey: true }, cardData: { cardParamMap: { flowStatus: '3', msgTitle: 'T' } } });
    // The content goes through the streaming API, not as card data.
    expect((update.request as { cardData: { cardParamMap: object } }).cardData.cardParamMap).not.toHaveProperty('msgContent');
  });

  it('a retried send whose first answer was lost never creates a second card', async () => {
    const s = await setup({ timeoutMs: 100 });
    emulator = s.emulator;
    emulator.faults.add({ route: 'card.createAndDeliver', nth: 1, latencyMs: 300 });
    const first = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('v1'), idempotencyKey: 'slow', replacing: false }));
    expect(s.plugin.transport.classify(first)).toMatchObject({ kind: 'transient' });
    await new Promise((r) => setTimeout(r, 350)); // the slow call lands
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('v2'), idempotencyKey: 'slow', replacing: false });
    expect(ref.id).toBe(outTrackIdFor('slow'));
    expect(emulator.cards()).toHaveLength(1);
    expect(emulator.card(ref.id)!.cardData.msgContent).toBe('v2');
  });

  it('treats deliverResults success:false in a 200 as a failed send, and a retry delivers the same card', async () => {
    const s = await setup();
    emulator = s.emulator;
    emulator.failDelivery({ nth: 1, errorMsg: 'SYSTEM_ERROR' });
    const error = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('v1'), idempotencyKey: 'd', replacing: false }));
    expect(error).toBeInstanceOf(DingTalkDeliveryError);
    expect(s.plugin.transport.classify(error)).toMatchObject({ kind: 'transient' });
    expect(emulator.card('pc-d')!.spaces[0]!.delivery).toBe('failed');

    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('v2'), idempotencyKey: 'd', replacing: false });
    expect(ref.id).toBe('pc-d');
    expect(emulator.cards()).toHaveLength(1);
    expect(emulator.card('pc-d')).toMatchObject({ cardData: { msgContent: 'v2' }, spaces: [expect.objectContaining({ delivery: 'delivered' })] });
    expect(emulator.calls({ route: 'card.createAndDeliver' })).toHaveLength(1);
    expect(emulator.calls({ route: 'card.deliver' })).toHaveLength(1);
  });

  it('refuses to send without a target, naming the value', async () => {
    const s = await setup({ target: undefined });
    emulator = s.emulator;
    const error = await failureOf(s.plugin.transport.send({ target: undefined, payload: payload('x'), idempotencyKey: 'n', replacing: false }));
    expect(String(error)).toMatch(/dingtalk target = undefined \(missing\)/);
    expect(s.plugin.transport.classify(error).kind).toBe('target');
    const bad = await failureOf(s.plugin.transport.send({ target: { type: 'group' } as never, payload: payload('x'), idempotencyKey: 'n', replacing: false }));
    expect(String(bad)).toMatch(/dingtalk target = \{"type":"group"\} \(openConversationId/);
    expect(emulator.cards()).toHaveLength(0);
  });
});

describe('DingTalk transport: access token', () => {
  it('fetches one token for many calls and sends it in x-acs-dingtalk-access-token', async () => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 't', replacing: false });
    await Promise.all([1, 2, 3].map((n) => s.plugin.transport.update({ message: ref, payload: payload(`u${n}`), final: false })));
    expect(emulator.calls({ route: 'oauth2.accessToken' })).toHaveLength(1);
    // Only the content changed: one stream each (and one for the send), no instance update.
    expect(emulator.counts()['card.streaming']).toMatchObject({ accepted: 4 });
    expect(emulator.counts()['card.update']).toBeUndefined();
  });

  it('refetches shortly before expireIn runs out', async () => {
    let now = 1_000_000;
    const s = await setup({}, {}, { now: () => now });
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'e', replacing: false });
    now += (7200 - 301) * 1000;
    await s.plugin.transport.update({ message: ref, payload: payload('b'), final: false });
    expect(emulator.calls({ route: 'oauth2.accessToken' })).toHaveLength(1);
    now += 2000; // inside the last 5 minutes
    await s.plugin.transport.update({ message: ref, payload: payload('c'), final: false });
    expect(emulator.calls({ route: 'oauth2.accessToken' })).toHaveLength(2);
  });

  it('a revoked token is an auth failure; refreshAuth gets a new one and the call goes through', async () => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'r', replacing: false });
    emulator.revokeTokens();
    const error = await failureOf(s.plugin.transport.update({ message: ref, payload: payload('b'), final: false }));
    expect(s.plugin.transport.classify(error)).toMatchObject({ kind: 'auth' });
    await s.plugin.transport.refreshAuth!();
    await s.plugin.transport.update({ message: ref, payload: payload('b'), final: false });
    expect(emulator.card(ref.id)!.cardData.msgContent).toBe('b');
    expect(emulator.calls({ route: 'oauth2.accessToken' })).toHaveLength(2);
  });

  it('never puts the secret or the token in errors', async () => {
    const s = await setup({ appSecret: 'super-secret-value' });
    emulator = s.emulator;
    const error = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 's', replacing: false }));
    expect(error).toBeInstanceOf(DingTalkApiError);
    expect((error as DingTalkApiError).code).toBe('invalidClientIdOrSecret');
    const dump = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(dump).not.toContain('super-secret-value');

    const good = await setup();
    await emulator.close();
    emulator = good.emulator;
    const ref = await good.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 's', replacing: false });
    const [{ token }] = emulator.tokens();
    emulator.faults.add({ route: 'card.streaming', nth: 2, respond: { status: 500, body: { code: 'system.busy', message: 'system.busy' } } });
    const failed = await failureOf(good.plugin.transport.update({ message: ref, payload: payload('b'), final: false }));
    expect(`${String(failed)} ${JSON.stringify(failed)} ${(failed as Error).stack}`).not.toContain(token);
    expect(good.plugin.transport.classify(failed)).toMatchObject({ kind: 'transient' });
  });
});

describe('DingTalk transport: failure kinds', () => {
  it.each([
    [403, { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi' }, { kind: 'rate-limited', retryAfterMs: 2000, scope: 'channel' }],
    [403, { code: 'Forbidden.AccessDenied.QpsLimitForApi' }, { kind: 'rate-limited', retryAfterMs: 2000, scope: 'channel' }],
    [400, { code: 'param.cardNotExist' }, { kind: 'gone' }],
    [400, { code: 'InvalidAuthentication', message: '不合法的access_token' }, { kind: 'auth' }],
    [401, { code: 'Unauthorized' }, { kind: 'auth' }],
    [400, { code: 'param.contentUnsafe' }, { kind: 'rejected' }],
    [400, { code: 'invalid.openConversationId' }, { kind: 'target' }],
    [400, { code: 'group.disbanded' }, { kind: 'target' }],
    [500, { code: 'system.busy' }, { kind: 'transient' }],
    [503, {}, { kind: 'transient' }],
    [403, { code: 'Forbidden.AccessDenied.ApiCountLimitForOrg' }, { kind: 'quota' }],
    [200, { success: true, result: false }, { kind: 'transient' }],
    [200, '<html><body>访问被拒绝</body></html>', { kind: 'transient' }],
    [200, { status: 1111, wait: 5, source: 'x5', punish: 'deny', uuid: 'u' }, { kind: 'rate-limited', retryAfterMs: 300_000, scope: 'channel' }],
  ])('HTTP %i %j → %j', async (status, body, expected) => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'f', replacing: false });
    emulator.faults.add({ route: 'card.streaming', nth: 2, respond: { status, body } });
    const error = await failureOf(s.plugin.transport.update({ message: ref, payload: payload('b'), final: false }));
    expect(s.plugin.transport.classify(error)).toMatchObject(expected);
  });

  it('403 AccessTokenPermissionDenied on the instance update is a missing scope, naming requiredScopes', async () => {
    const s = await setup({ contentMode: 'card-data' }, { missingScopes: ['Card.Instance.Write'] });
    emulator = s.emulator;
    const error = await failureOf(s.plugin.transport.update({ message: { id: 'pc-any' }, payload: payload('x'), final: false }));
    expect(s.plugin.transport.classify(error)).toMatchObject({ kind: 'missing-scope', scope: 'Card.Instance.Write' });
  });

  it('a delivery refused in a 200 for a reason of the chat fails fast as target; DingTalk-side reasons stay transient', async () => {
    const s = await setup();
    emulator = s.emulator;
    emulator.failDelivery({ times: 1, errorMsg: 'robot not in group' });
    const refused = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'd1', replacing: false }));
    expect(s.plugin.transport.classify(refused)).toMatchObject({ kind: 'target', detail: expect.stringMatching(/robot not in group/) });
    emulator.failDelivery({ times: 1, errorMsg: 'SYSTEM_ERROR' });
    const busy = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'd2', replacing: false }));
    expect(s.plugin.transport.classify(busy)).toMatchObject({ kind: 'transient' });
  });

  it('an unknown card answers param.cardNotExist for real, which is gone', async () => {
    const s = await setup();
    emulator = s.emulator;
    const error = await failureOf(s.plugin.transport.update({ message: { id: 'pc-never-sent' }, payload: payload('x'), final: false }));
    expect(s.plugin.transport.classify(error)).toMatchObject({ kind: 'gone' });
  });

  it('timeouts and refused connections are transient', async () => {
    const s = await setup({ timeoutMs: 50 });
    emulator = s.emulator;
    emulator.faults.add({ route: 'oauth2.accessToken', nth: 1, latencyMs: 200 });
    const timedOut = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'x', replacing: false }));
    expect(String(timedOut)).toContain('timed out');
    expect(s.plugin.transport.classify(timedOut).kind).toBe('transient');

    const closed = dingtalk({ appKey: 'k', appSecret: 's', cardTemplateId: 't', target: GROUP, baseUrl: 'http://127.0.0.1:9' });
    const refused = await failureOf(closed.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'x', replacing: false }));
    expect(closed.transport.classify(refused).kind).toBe('transient');
    expect(closed.transport.classify(new TypeError('bug'))).toMatchObject({ kind: 'transient', detail: 'TypeError: bug' });
  });
});

describe('DingTalk transport: content through the AI-card streaming API', () => {
  const streams = (e: DingTalkEmulator, outTrackId: string) => e.card(outTrackId)!.history.filter((h) => h.route === 'card.streaming');

  it('streams the content after createAndDeliver (full content, new guid per call, the content key) so a streaming template shows it', async () => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('first'), idempotencyKey: 'st', replacing: false });
    await s.plugin.transport.update({ message: ref, payload: payload('second'), final: false });
    await s.plugin.transport.update({ message: ref, payload: payload('done', '3'), final: true });
    const frames = streams(emulator, ref.id).map((h) => h.request as Record<string, unknown>);
    expect(frames.map((f) => [f.content, f.isFull, f.isFinalize, f.key])).toEqual([
      ['first', true, false, 'msgContent'],
      ['second', true, false, 'msgContent'],
      ['done', true, true, 'msgContent'],
    ]);
    expect(new Set(frames.map((f) => f.guid)).size).toBe(3);
    expect(emulator.card(ref.id)!.display).toEqual({ state: 'finished', content: 'done' });
  });

  it('a failed run in the failed state closes the stream with isError', async () => {
    const s = await setup({}, { template: { failedStateEnabled: true } });
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('going'), idempotencyKey: 'er', replacing: false });
    await s.plugin.transport.update({ message: ref, payload: payload('❌ broke', '5'), final: true });
    expect(streams(emulator, ref.id).at(-1)!.request).toMatchObject({ isError: true, isFinalize: false, content: '❌ broke' });
    expect(emulator.card(ref.id)!.display).toEqual({ state: 'failed', content: '❌ broke' });
  });

  it('says which call failed, and a retry repeats only that call (the stream is not sent again after isFinalize)', async () => {
    const s = await setup();
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('going'), idempotencyKey: 'rt', replacing: false });
    emulator.faults.add({ route: 'card.update', nth: 1, respond: { status: 500, body: { code: 'system.busy', message: 'system.busy' } } });
    const failed = await failureOf(s.plugin.transport.update({ message: ref, payload: payload('end', '3'), final: true }));
    expect(failed).toMatchObject({ operation: 'update', code: 'system.busy' });
    await s.plugin.transport.update({ message: ref, payload: payload('end', '3'), final: true });
    expect(streams(emulator, ref.id).filter((h) => (h.request as { isFinalize: boolean }).isFinalize)).toHaveLength(1);
    expect(emulator.card(ref.id)).toMatchObject({ state: 'finished', cardData: { flowStatus: '3', msgContent: 'end' } });
  });

  it('a send whose stream failed is retried as a stream only: one card, its content shown', async () => {
    const s = await setup();
    emulator = s.emulator;
    emulator.faults.add({ route: 'card.streaming', nth: 1, respond: { status: 500, body: { code: 'unknownError', message: '未知错误' } } });
    const failed = await failureOf(s.plugin.transport.send({ target: GROUP, payload: payload('hello'), idempotencyKey: 'ss', replacing: false }));
    expect(failed).toMatchObject({ operation: 'stream' });
    expect(s.plugin.transport.classify(failed).kind).toBe('transient');
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('hello'), idempotencyKey: 'ss', replacing: false });
    expect(emulator.cards()).toHaveLength(1);
    expect(emulator.calls({ route: 'card.createAndDeliver' })).toHaveLength(1);
    expect(emulator.card(ref.id)!.display.content).toBe('hello');
  });

  it("contentMode 'card-data' writes the content with instance updates only, for templates without a streaming component", async () => {
    const s = await setup({ contentMode: 'card-data' }, { template: { streamingSwitch: false } });
    emulator = s.emulator;
    const ref = await s.plugin.transport.send({ target: GROUP, payload: payload('a'), idempotencyKey: 'cd', replacing: false });
    await s.plugin.transport.update({ message: ref, payload: payload('b', '3'), final: true });
    expect(emulator.counts()['card.streaming']).toBeUndefined();
    expect(emulator.card(ref.id)!.display).toEqual({ state: 'finished', content: 'b' });
  });
});
