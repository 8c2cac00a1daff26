import { describe, expect, it } from 'vitest';
import { dingtalk } from '../src/index.js';
import { GROUP, TEMPLATE_ID } from './helpers.js';

describe('dingtalk budget keys (20 QPS per app per API)', () => {
  it('sends and updates draw from their own API key of the app', () => {
    const plugin = dingtalk({ appKey: 'ding_app', appSecret: 'secret', cardTemplateId: TEMPLATE_ID, target: GROUP });
    const settings = { ...plugin.defaults, ...plugin.overrides };
    const send = plugin.budgetKeys!({ kind: 'send', target: undefined }, settings);
    const update = plugin.budgetKeys!({ kind: 'update', target: undefined, message: { id: 'track-1' } }, settings);
    expect(send[0]!.key).toBe('dingtalk:ding_app:createAndDeliver');
    expect(update[0]!.key).toBe(send[0]!.key.replace('createAndDeliver', 'updateCard'));
    expect(update[0]!.windows).toEqual([{ limit: 20, intervalMs: 1000 }]);
  });

  it('in streaming content mode, sends and updates also draw from the streaming API key (it has its own 20 QPS)', () => {
    const streaming = dingtalk({ appKey: 'ding_app', appSecret: 'secret', cardTemplateId: TEMPLATE_ID, target: GROUP });
    const settings = { ...streaming.defaults, ...streaming.overrides };
    const keys = (plugin: typeof streaming, call: Parameters<NonNullable<typeof streaming.budgetKeys>>[0]) => plugin.budgetKeys!(call, settings).map((key) => key.key);
    expect(keys(streaming, { kind: 'send', target: undefined })).toEqual(['dingtalk:ding_app:createAndDeliver', 'dingtalk:ding_app:streamCard']);
    expect(keys(streaming, { kind: 'update', target: undefined, message: { id: 'track-1' } })).toEqual(['dingtalk:ding_app:updateCard', 'dingtalk:ding_app:streamCard']);
    const cardData = dingtalk({ appKey: 'ding_app', appSecret: 'secret', cardTemplateId: TEMPLATE_ID, target: GROUP, contentMode: 'card-data' });
    expect(keys(cardData, { kind: 'update', target: undefined, message: { id: 'track-1' } })).toEqual(['dingtalk:ding_app:updateCard']);
  });
});
