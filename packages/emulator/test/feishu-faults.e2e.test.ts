import { afterEach, describe, expect, it } from 'vitest';
import { FaultRuleError, createManualClock, startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { card2, sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator;
afterEach(() => emulator?.close());

async function setup(clock = createManualClock(Date.UTC(2026, 0, 1))) {
  emulator = await startFeishuEmulator({ clock, limits: { messageUpdateWindows: [{ limit: 1000, intervalMs: 1000 }] } });
  const client = sdkClient(emulator);
  const send = async (text: string) =>
    (await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2(text)) } })).data!.message_id!;
  const patch = (id: string, text: string) => client.im.v1.message.patch({ path: { message_id: id }, data: { content: JSON.stringify(card2(text)) } });
  return { client, clock, send, patch };
}

const RATE_LIMITED = { status: 400, body: { code: 230020, msg: 'This operation triggers the frequency limit.' } };

describe('Feishu emulator: fault injection', () => {
  it('answers the n-th patch with the given status and body; the card keeps its last accepted content', async () => {
    const { send, patch } = await setup();
    const id = await send('v0');
    emulator.faults.add({ route: 'im.message.patch', nth: 2, respond: RATE_LIMITED });
    expect((await patch(id, 'v1')).code).toBe(0);
    const failure = await sdkFailure(patch(id, 'v2'));
    expect([failure.status, failure.code]).toEqual([400, 230020]);
    expect(emulator.message(id)!.card).toEqual(card2('v1'));
    expect((await patch(id, 'v3')).code).toBe(0);
    const history = emulator.message(id)!.history.filter((h) => h.route === 'im.message.patch');
    expect(history.map((h) => [h.outcome, h.code, h.faultId !== undefined])).toEqual([
      ['accepted', 0, false],
      ['rejected', 230020, true],
      ['accepted', 0, false],
    ]);
    expect(emulator.faults.list()[0]!.hits).toBe(1);
  });

  it('counts the n-th call per message when asked', async () => {
    const { send, patch } = await setup();
    const a = await send('a');
    const b = await send('b');
    emulator.faults.add({ route: 'im.message.patch', nth: 1, perKey: true, respond: { status: 500, body: { code: 500, msg: 'internal' } } });
    expect((await sdkFailure(patch(a, 'a1'))).status).toBe(500);
    expect((await sdkFailure(patch(b, 'b1'))).status).toBe(500);
    expect((await patch(a, 'a2')).code).toBe(0);
  });

  it('answers every call about one message when keyed, with headers', async () => {
    const { send, patch } = await setup();
    const old = await send('old');
    const other = await send('other');
    emulator.faults.add({
      route: 'im.message.patch',
      key: old,
      respond: { status: 429, body: { code: 99991400, msg: 'request trigger frequency limit' }, headers: { 'x-ogw-ratelimit-reset': '7' } },
    });
    const failure = await sdkFailure(patch(old, 'x'));
    expect([failure.status, failure.headers['x-ogw-ratelimit-reset']]).toEqual([429, '7']);
    expect((await sdkFailure(patch(old, 'y'))).status).toBe(429);
    expect((await patch(other, 'z')).code).toBe(0);
  });

  it('answers calls inside a time window of the emulator clock', async () => {
    const { send, patch, clock } = await setup();
    const id = await send('v0');
    emulator.faults.setOrigin(clock());
    emulator.faults.add({ route: 'im.message.patch', window: { fromMs: 7000, toMs: 9000 }, respond: { status: 400, body: { code: 230011, msg: 'The message was withdrawn.' } } });
    clock.advance(6999);
    expect((await patch(id, 'before')).code).toBe(0);
    clock.advance(1);
    expect((await sdkFailure(patch(id, 'inside'))).code).toBe(230011);
    clock.advance(2000);
    expect((await patch(id, 'after')).code).toBe(0);
  });

  it('fails the token route too, so clients see a failing token fetch', async () => {
    const { client } = await setup();
    emulator.faults.add({ route: 'auth.tenant_access_token', nth: 1, respond: { status: 503, body: { code: 503, msg: 'unavailable' } } });
    // setup's send has not happened yet: the first token fetch fails
    await expect(
      client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'text', content: '{"text":"x"}' } }),
    ).rejects.toMatchObject({ response: { status: 503 } });
    const ok = await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'text', content: '{"text":"x"}' } });
    expect(ok.code).toBe(0);
  });

  it('adds latency and records concurrent calls on one message', async () => {
    const { send, patch } = await setup(createManualClock(0));
    const id = await send('v0');
    emulator.faults.add({ route: 'im.message.patch', latencyMs: 150 });
    const started = Date.now();
    await patch(id, 'slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(emulator.message(id)!.maxConcurrentCalls).toBe(1);
    await Promise.all([patch(id, 'p1'), patch(id, 'p2')]);
    expect(emulator.message(id)!.maxConcurrentCalls).toBe(2);
  });

  it('lists and clears rules, and refuses unknown routes', async () => {
    await setup();
    const id = emulator.faults.add({ route: 'im.message.create', nth: 3, respond: RATE_LIMITED, label: 'third send' });
    expect(emulator.faults.list()).toMatchObject([{ id, route: 'im.message.create', nth: 3, hits: 0, label: 'third send' }]);
    expect(() => emulator.faults.add({ route: 'patch', respond: RATE_LIMITED })).toThrow(FaultRuleError);
    emulator.faults.clear();
    expect(emulator.faults.list()).toEqual([]);
  });
});
