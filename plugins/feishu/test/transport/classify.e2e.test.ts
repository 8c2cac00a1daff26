import * as lark from '@larksuiteoapi/node-sdk';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeishuApiError, FeishuLocalError, classifyFeishuError } from '../../src/transport/classify.js';

const silent = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/** What the official SDK throws for a given emulator answer to a patch. */
async function thrownFor(emulator: FeishuEmulator, client: lark.Client, respond: { status: number; body?: unknown; headers?: Record<string, string> }) {
  const id = emulator.faults.add({ route: 'im.message.patch', respond });
  try {
    await client.im.v1.message.patch({ path: { message_id: 'om_x' }, data: { content: '{}' } });
    throw new Error('expected a throw');
  } catch (error) {
    return error;
  } finally {
    emulator.faults.remove(id);
  }
}

describe('classifyFeishuError on what the SDK really throws', () => {
  let emulator: FeishuEmulator;
  let client: lark.Client;
  beforeAll(async () => {
    emulator = await startFeishuEmulator();
    const app = emulator.apps[0]!;
    client = new lark.Client({ appId: app.appId, appSecret: app.appSecret, domain: emulator.baseUrl, cache: new lark.DefaultCache(), logger: silent });
  });
  afterAll(() => emulator.close());

  it.each([
    [400, { code: 230020, msg: 'This operation triggers the frequency limit.' }, {}, { kind: 'rate-limited', scope: 'card', retryAfterMs: 1000 }],
    [429, { code: 99991400, msg: 'request trigger frequency limit' }, { 'x-ogw-ratelimit-reset': '7' }, { kind: 'rate-limited', scope: 'channel', retryAfterMs: 7000 }],
    [400, { code: 99991400, msg: 'request trigger frequency limit' }, {}, { kind: 'rate-limited', scope: 'channel' }],
    [400, { code: 230011, msg: 'The message is recalled.' }, {}, { kind: 'gone' }],
    [400, { code: 231003, msg: 'The message is deleted.' }, {}, { kind: 'gone' }],
    [400, { code: 230031, msg: 'Message can only be modified within 14 days after sending.' }, {}, { kind: 'gone' }],
    [400, { code: 230025, msg: 'The length of the message content reaches its limit.' }, {}, { kind: 'rejected' }],
    [400, { code: 230099, msg: 'Failed to create card content, ext=ErrCode: 11310; ErrMsg: element exceeds the limit; ' }, {}, { kind: 'rejected' }],
    [400, { code: 230001, msg: 'Your request contains an invalid request parameter.' }, {}, { kind: 'rejected' }],
    [400, { code: 99991663, msg: 'Invalid access token for authorization.' }, {}, { kind: 'auth' }],
    [401, { code: 99991661, msg: 'Need a token' }, {}, { kind: 'auth' }],
    [500, { code: 500, msg: 'internal' }, {}, { kind: 'transient' }],
    [503, undefined, {}, { kind: 'transient' }],
  ])('HTTP %i %o → %o', async (status, body, headers, expected) => {
    const error = await thrownFor(emulator, client, { status, body, headers });
    const failure = classifyFeishuError(error);
    expect(failure).toMatchObject(expected);
    expect(failure.detail).toContain(`HTTP ${status}`);
    expect(failure.detail).not.toMatch(/Bearer|t-[0-9a-f]{10}/);
  });

  it('treats a refused connection as transient', async () => {
    const dead = new lark.Client({ appId: 'cli_dead', appSecret: 's', domain: 'http://127.0.0.1:1', cache: new lark.DefaultCache(), logger: silent });
    const error = await dead.im.v1.message.patch({ path: { message_id: 'om_x' }, data: { content: '{}' } }).catch((e: unknown) => e);
    expect(classifyFeishuError(error)).toMatchObject({ kind: 'transient', detail: 'feishu network error (ECONNREFUSED)' });
  });
});

describe('classifyFeishuError on other inputs', () => {
  it('reads HTTP 200 answers with a non-zero code', () => {
    expect(classifyFeishuError(new FeishuApiError(200, 230020, 'x'))).toMatchObject({ kind: 'rate-limited' });
    expect(classifyFeishuError(new FeishuApiError(200, 230099, 'x'))).toMatchObject({ kind: 'rejected' });
    expect(classifyFeishuError(new FeishuApiError(200, 230011, 'x'))).toMatchObject({ kind: 'gone' });
  });

  it('reads the SDK token error and timeouts, and never throws', () => {
    expect(classifyFeishuError(new Error('failed to get tenant_access_token, code: 10015, msg: wrong app secret'))).toMatchObject({ kind: 'auth' });
    expect(classifyFeishuError(Object.assign(new Error('timeout of 10000ms exceeded'), { code: 'ECONNABORTED' }))).toMatchObject({ kind: 'transient', detail: 'feishu timeout (ECONNABORTED)' });
    expect(classifyFeishuError(new FeishuLocalError('card too big'))).toEqual({ kind: 'rejected', detail: 'card too big' });
    for (const odd of [undefined, null, 42, 'text', {}, { response: null }, { response: { status: 'x' } }]) expect(() => classifyFeishuError(odd)).not.toThrow();
  });
});
