import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDingTalkEmulator, type DingTalkEmulator } from '../src/index.js';
import { TEMPLATE, call, groupCard, robotCard, token } from './dingtalk-client.js';

let emulator: DingTalkEmulator;
let t: string;
beforeEach(async () => {
  emulator = await startDingTalkEmulator();
  t = await token(emulator);
});
afterEach(() => emulator.close());

const create = (body: unknown) => call(emulator, 'POST', '/v1.0/card/instances/createAndDeliver', body, t);
const update = (body: unknown) => call(emulator, 'PUT', '/v1.0/card/instances', body, t);
const stream = (body: unknown) => call(emulator, 'PUT', '/v1.0/card/streaming', body, t);

describe('DingTalk emulator: createAndDeliver', () => {
  it('creates and delivers a group card and answers deliverResults', async () => {
    const answer = await create(groupCard('run-1'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      result: {
        outTrackId: 'run-1',
        deliverResults: [{ spaceType: 'IM_GROUP', spaceId: 'cidAbC123==', success: true, carrierId: expect.any(String) }],
      },
    });
    const card = emulator.card('run-1')!;
    expect(card).toMatchObject({ cardTemplateId: TEMPLATE, cardData: { msgContent: 'hello', flowStatus: '2' }, state: 'inputting', version: 1 });
    expect(card.spaces).toEqual([expect.objectContaining({ spaceType: 'IM_GROUP', spaceId: 'cidAbC123==', delivery: 'delivered' })]);
  });

  it('delivers a robot 1:1 card to IM_ROBOT.<userId> in state processing for flowStatus 1', async () => {
    const answer = await create(robotCard('run-2', 'user42'));
    expect(answer.body.result.deliverResults[0]).toMatchObject({ spaceType: 'IM_ROBOT', spaceId: 'user42', success: true });
    expect(emulator.card('run-2')!.state).toBe('processing');
  });

  it.each([
    ['cardTemplateId missing', { cardTemplateId: undefined }, 'param.cardTemplateIdEmpty'],
    ['outTrackId missing', { outTrackId: '' }, 'param.outTrackIdEmpty'],
    ['cardData missing', { cardData: undefined }, 'param.cardPublicDataEmpty'],
    ['openSpaceId missing', { openSpaceId: undefined }, 'param.openSpaceIdEmpty'],
    ['openSpaceId without prefix', { openSpaceId: 'IM_GROUP.cid1' }, 'param.openSpaceIdInvalid'],
    ['unknown space type', { openSpaceId: 'dtv1.card//IM_CHANNEL.cid1' }, 'param.openSpaceIdInvalid'],
    ['empty space id', { openSpaceId: 'dtv1.card//IM_GROUP.' }, 'param.openSpaceIdInvalid'],
    ['group without its deliver model', { imGroupOpenDeliverModel: undefined }, 'param.openDeliverModelEmpty'],
    ['group deliver model without robotCode', { imGroupOpenDeliverModel: { atUserIds: {} } }, 'param.openDeliverModelError'],
    ['robot space with a group deliver model', { openSpaceId: 'dtv1.card//IM_ROBOT.u1' }, 'param.openDeliverModelEmpty'],
    ['a number in cardParamMap', { cardData: { cardParamMap: { flowStatus: 2 } } }, 'param.invalid'],
    ['an object in cardParamMap', { cardData: { cardParamMap: { config: { autoLayout: true } } } }, 'param.invalid'],
  ])('refuses %s with 400 %s and creates nothing', async (_name, patch, code) => {
    const answer = await create({ ...groupCard('bad'), ...patch });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ requestid: expect.any(String), code });
    expect(emulator.cards()).toEqual([]);
    expect(emulator.calls({ route: 'card.createAndDeliver' })).toEqual([expect.objectContaining({ outcome: 'rejected', status: 400, code })]);
  });

  it('names the non-string cardParamMap key in the message', async () => {
    const answer = await create(groupCard('bad', { msgContent: 'ok', flowStatus: 3 }));
    expect(answer.body.message).toContain('cardData.cardParamMap.flowStatus');
  });

  it('accepts lower-case space types as in the docs examples', async () => {
    expect((await create({ ...groupCard('lc'), openSpaceId: 'dtv1.card//im_group.cid9' })).status).toBe(200);
  });

  it('refuses a second card with the same outTrackId (param.cardAlreadyExist) and keeps the first', async () => {
    await create(groupCard('dup', { msgContent: 'first' }));
    const answer = await create(groupCard('dup', { msgContent: 'second' }));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('param.cardAlreadyExist');
    expect(emulator.card('dup')!.cardData.msgContent).toBe('first');
  });

  it('can report a failed delivery as success:false inside a 200, and deliver later', async () => {
    const id = emulator.failDelivery({ nth: 1, errorMsg: 'SYSTEM_ERROR' });
    const answer = await create(groupCard('undelivered'));
    expect(answer.status).toBe(200);
    expect(answer.body.result.deliverResults).toEqual([{ spaceType: 'IM_GROUP', spaceId: 'cidAbC123==', success: false, errorMsg: 'SYSTEM_ERROR' }]);
    expect(emulator.card('undelivered')!.spaces[0]!.delivery).toBe('failed');
    expect(emulator.deliveryFaults.list().find((f) => f.id === id)!.hits).toBe(1);

    const again = await call(emulator, 'POST', '/v1.0/card/instances/deliver', {
      outTrackId: 'undelivered',
      openSpaceId: 'dtv1.card//IM_GROUP.cidAbC123==',
      imGroupOpenDeliverModel: { robotCode: 'dingrobot' },
    }, t);
    expect(again.body).toEqual({ success: true, result: [expect.objectContaining({ success: true })] });
    expect(emulator.card('undelivered')!.spaces).toEqual([expect.objectContaining({ delivery: 'delivered' })]);
  });
});

describe('DingTalk emulator: PUT /v1.0/card/instances', () => {
  beforeEach(async () => {
    await create(groupCard('u', { msgTitle: 'Title', msgContent: 'one', flowStatus: '2' }));
  });

  it('merges by key with updateCardDataByKey', async () => {
    const answer = await update({ outTrackId: 'u', cardData: { cardParamMap: { msgContent: 'two', flowStatus: '3' } }, cardUpdateOptions: { updateCardDataByKey: true } });
    expect(answer.body).toEqual({ success: true, result: true });
    expect(emulator.card('u')).toMatchObject({ cardData: { msgTitle: 'Title', msgContent: 'two', flowStatus: '3' }, state: 'finished', version: 2 });
  });

  it('replaces the whole cardData without it (the documented default)', async () => {
    await update({ outTrackId: 'u', cardData: { cardParamMap: { msgContent: 'only' } } });
    expect(emulator.card('u')!.cardData).toEqual({ msgContent: 'only' });
    // flowStatus gone: the card keeps the state it had
    expect(emulator.card('u')!.state).toBe('inputting');
  });

  it('maps flowStatus 5 to failed', async () => {
    await update({ outTrackId: 'u', cardData: { cardParamMap: { flowStatus: '5' } }, cardUpdateOptions: { updateCardDataByKey: true } });
    expect(emulator.card('u')!.state).toBe('failed');
  });

  it('answers an unknown outTrackId with 400 param.cardNotExist', async () => {
    const answer = await update({ outTrackId: 'nope', cardData: { cardParamMap: { a: 'b' } } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'param.cardNotExist', message: 'param.cardNotExist' });
  });

  it('refuses an update without data and one with a non-string value', async () => {
    expect((await update({ outTrackId: 'u' })).body.code).toBe('param.cardDataAndPrivateDataBothEmpty');
    expect((await update({ outTrackId: 'u', cardData: { cardParamMap: { ok: true } } })).body.code).toBe('param.invalid');
    expect(emulator.card('u')!.version).toBe(1);
  });
});

describe('DingTalk emulator: PUT /v1.0/card/streaming', () => {
  beforeEach(async () => {
    await create(groupCard('s', { msgContent: '', flowStatus: '1' }));
  });
  const frame = (guid: string, content: string, extra: Record<string, unknown> = {}) => ({ outTrackId: 's', guid, key: 'msgContent', content, ...extra });

  it('appends by default, overwrites with isFull, and ignores a repeated guid', async () => {
    expect((await stream(frame('g1', 'Hel'))).body).toEqual({ success: true, result: true });
    expect(emulator.card('s')!.state).toBe('inputting');
    await stream(frame('g2', 'lo'));
    expect(emulator.card('s')!.cardData.msgContent).toBe('Hello');
    await stream(frame('g2', 'lo')); // retried frame: same guid
    expect(emulator.card('s')!.cardData.msgContent).toBe('Hello');
    await stream(frame('g3', 'Full text', { isFull: true }));
    expect(emulator.card('s')!.cardData.msgContent).toBe('Full text');
  });

  it('finishes on isFinalize (empty content allowed) and fails on isError', async () => {
    await stream(frame('a', 'x', { isFull: true }));
    await stream(frame('b', '', { isFinalize: true }));
    expect(emulator.card('s')!.state).toBe('finished');
    await create(groupCard('s2'));
    await stream({ outTrackId: 's2', guid: 'c', key: 'msgContent', content: 'boom', isError: true, isFull: true });
    expect(emulator.card('s2')!.state).toBe('failed');
  });

  it('answers the documented errors', async () => {
    expect((await stream({ ...frame('', 'x') })).body.code).toBe('param.stream.guidEmpty');
    expect((await stream({ ...frame('k', 'x'), key: '' })).body.code).toBe('param.stream.keyEmpty');
    expect((await stream(frame('k', ''))).body.code).toBe('param.stream.contentEmpty');
    const unknown = await stream({ ...frame('k', 'x'), outTrackId: 'ghost' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'param.stream.outTrackId', message: 'card is not exist' });
  });

  it('answers 500 unknownError for a key that is not a streaming variable, when keys are configured', async () => {
    const strict = await startDingTalkEmulator({ streamingKeys: ['msgContent'] });
    try {
      const st = await token(strict);
      await call(strict, 'POST', '/v1.0/card/instances/createAndDeliver', groupCard('k'), st);
      const answer = await call(strict, 'PUT', '/v1.0/card/streaming', { outTrackId: 'k', guid: 'g', key: 'other', content: 'x' }, st);
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ code: 'unknownError', message: '未知错误' });
    } finally {
      await strict.close();
    }
  });
});
