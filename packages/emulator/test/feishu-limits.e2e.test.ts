import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { call, card2, fetchToken, sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator;
afterEach(() => emulator?.close());

const DAY = 24 * 60 * 60 * 1000;

async function setup(clock = createManualClock(Date.UTC(2026, 0, 1))) {
  emulator = await startFeishuEmulator({ clock });
  const client = sdkClient(emulator);
  const sent = await client.im.v1.message.create({
    params: { receive_id_type: 'chat_id' },
    data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2('start')) },
  });
  const id = sent.data!.message_id!;
  const patch = (content: unknown) =>
    client.im.v1.message.patch({ path: { message_id: id }, data: { content: typeof content === 'string' ? content : JSON.stringify(content) } });
  return { client, clock, id, patch };
}

describe('Feishu emulator: documented limits and their answers', () => {
  it('allows 5 patches per second per message, then 400 / 230020', async () => {
    const { clock, patch, id } = await setup();
    for (let i = 0; i < 5; i++) expect((await patch(card2(`v${i}`))).code).toBe(0);
    const limited = await sdkFailure(patch(card2('v5')));
    expect([limited.status, limited.code, limited.msg]).toEqual([400, 230020, 'This operation triggers the frequency limit.']);
    clock.advance(1000);
    expect((await patch(card2('v6'))).code).toBe(0);
    expect(emulator.message(id)!.card).toEqual(card2('v6'));
  });

  it('counts a patch in its message\'s window when it arrives, not when its slow answer leaves (as the platform counts)', async () => {
    const { clock, id } = await setup();
    const token = await fetchToken(emulator);
    const patch = (text: string) => call(emulator, 'PATCH', `/open-apis/im/v1/messages/${id}`, { content: JSON.stringify(card2(text)) }, token);
    const arrived = async (faultId: string, hits: number) => {
      while ((emulator.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < hits) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // Five slow patches arrive at once (a full window: 5 a second per message); a second later (on the
    // emulator's clock) a sixth arrives while they are still being answered: it is in a window of its own.
    const slow = emulator.faults.add({ route: 'im.message.patch', times: 5, latencyMs: 300 });
    const first = Array.from({ length: 5 }, (_, i) => patch(`m${i}`));
    await arrived(slow, 5);
    clock.advance(1001);
    expect((await patch('m5')).body.code).toBe(0);
    expect((await Promise.all(first)).map((answer) => answer.body.code)).toEqual([0, 0, 0, 0, 0]);
    // The other way round: a slow patch that arrives in a full window is refused though it is answered after it.
    clock.advance(60_000);
    for (let i = 0; i < 5; i += 1) expect((await patch(`n${i}`)).body.code).toBe(0);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'im.message.patch', times: 1, latencyMs: 300 });
    const inFullWindow = patch('n5');
    await arrived(late, 1);
    clock.advance(1000);
    expect((await inFullWindow).body.code).toBe(230020);
  });

  it('answers the 51st call in a second with 429 / 99991400 and x-ogw-ratelimit headers', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    emulator = await startFeishuEmulator({ clock });
    const token = await fetchToken(emulator);
    const body = { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2('x')) };
    // 50 patches spread over 10 messages (5 each, within the per-message limit)
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push((await call(emulator, 'POST', `/open-apis/im/v1/messages?receive_id_type=chat_id`, { ...body, receive_id: `oc_chat${i}` }, token)).body.data.message_id);
    }
    for (let i = 0; i < 50; i++) {
      const r = await call(emulator, 'PATCH', `/open-apis/im/v1/messages/${ids[i % 10]}`, { content: body.content }, token);
      expect(r.body.code).toBe(0);
    }
    const limited = await call(emulator, 'PATCH', `/open-apis/im/v1/messages/${ids[0]}`, { content: body.content }, token);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 99991400, msg: 'request trigger frequency limit' });
    expect(limited.headers.get('x-ogw-ratelimit-limit')).toBe('50');
    expect(limited.headers.get('x-ogw-ratelimit-reset')).toBe('1');
  });

  it('answers 429 once 1000 calls were made in a minute, with the seconds to wait', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    emulator = await startFeishuEmulator({ clock, limits: { chatSendWindows: [{ limit: 10_000, intervalMs: 1000 }] } });
    const token = await fetchToken(emulator);
    const body = { receive_id: 'oc_team', msg_type: 'text', content: '{"text":"x"}' };
    for (let second = 0; second < 20; second++) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () => call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body, token)),
      );
      expect(batch.every((r) => r.status === 200)).toBe(true);
      clock.advance(1000);
    }
    const limited = await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', body, token);
    expect([limited.status, limited.body.code]).toEqual([429, 99991400]);
    expect(limited.headers.get('x-ogw-ratelimit-limit')).toBe('1000');
    expect(limited.headers.get('x-ogw-ratelimit-reset')).toBe('40'); // first call at t=0, now t=20 s
    // 1001 loopback calls: about 2 s on an idle machine, past 20 s on a busy one (the window is on the manual clock).
  }, 120_000);

  it('rejects card JSON that does not parse: 230099 / 200621', async () => {
    const { patch } = await setup();
    const failure = await sdkFailure(patch('{"schema":"2.0",'));
    expect(failure.code).toBe(230099);
    expect(failure.msg).toContain('ErrCode: 200621');
  });

  it('rejects content over 30 KB (UTF-8 bytes): 230025', async () => {
    const { patch } = await setup();
    const big = card2('字'.repeat(10_300)); // ~30.9 KB of UTF-8, fewer than 30720 chars
    expect(JSON.stringify(big).length).toBeLessThan(30 * 1024);
    expect((await sdkFailure(patch(big))).code).toBe(230025);
    expect((await patch(card2('字'.repeat(10_000)))).code).toBe(0);
  });

  it('rejects note and action in 2.0 cards: 230099 / 200861', async () => {
    const { patch } = await setup();
    for (const tag of ['note', 'action']) {
      const card = card2('ok');
      (card.body as any).elements.push({ tag, elements: [] });
      const failure = await sdkFailure(patch(card));
      expect(failure.code).toBe(230099);
      expect(failure.msg).toContain('ErrCode: 200861');
      expect(failure.msg).toContain(`unsupported tag ${tag}`);
    }
  });

  it('rejects more than 200 components, counting nested ones: 230099 / 11310', async () => {
    const { patch } = await setup();
    const card = card2(...Array.from({ length: 199 }, (_, i) => `line ${i}`));
    expect((await patch(card)).code).toBe(0);
    (card.body as any).elements.push({ tag: 'collapsible_panel', element_id: 'panel', elements: [{ tag: 'markdown', content: 'x' }] });
    const failure = await sdkFailure(patch(card));
    expect(failure.code).toBe(230099);
    expect(failure.msg).toContain('ErrCode: 11310; ErrMsg: element exceeds the limit');
  });

  it('rejects duplicate and malformed element_id', async () => {
    const { patch } = await setup();
    const dup = card2('a', 'b');
    (dup.body as any).elements[1].element_id = 'md_0';
    expect((await sdkFailure(patch(dup))).msg).toContain('Duplicate element_id');
    const long = card2('a');
    (long.body as any).elements[0].element_id = 'a_very_long_element_id_over_20';
    expect((await sdkFailure(patch(long))).code).toBe(230099);
    const digit = card2('a');
    (digit.body as any).elements[0].element_id = '1abc';
    expect((await sdkFailure(patch(digit))).code).toBe(230099);
  });

  it('rejects more than 3 markdown tables per card (empirical 11310), fenced tables do not count', async () => {
    const { patch } = await setup();
    const table = '| a | b |\n| --- | :-: |\n| 1 | 2 |';
    expect((await patch(card2(`${table}\n\n${table}\n\n${table}\n\n\`\`\`\n${table}\n\`\`\``))).code).toBe(0);
    const failure = await sdkFailure(patch(card2(`${table}\n\n${table}`, `${table}\n\ntext\n\n${table}`)));
    expect(failure.code).toBe(230099);
    expect(failure.msg).toContain('card table number over limit');
  });

  it('patches 1.0 cards only when they are shared (update_multi) before and after', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const v1 = (updateMulti: boolean, text: string) => ({ config: { update_multi: updateMulti }, elements: [{ tag: 'div', text: { tag: 'lark_md', content: text } }, { tag: 'note', elements: [] }] });
    const send = async (card: unknown) =>
      (await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card) } })).data!.message_id!;
    const shared = await send(v1(true, 'a'));
    const notShared = await send(v1(false, 'a'));
    const patch = (id: string, card: unknown) => client.im.v1.message.patch({ path: { message_id: id }, data: { content: JSON.stringify(card) } });
    expect((await patch(shared, v1(true, 'b'))).code).toBe(0); // note is fine in 1.0
    expect((await sdkFailure(patch(shared, v1(false, 'c')))).code).toBe(230001);
    expect((await sdkFailure(patch(notShared, v1(true, 'c')))).code).toBe(230001);
  });

  it('answers 230011 after a recall and 231003 after a delete', async () => {
    const { patch, id, client } = await setup();
    emulator.recall(id);
    expect((await sdkFailure(patch(card2('late')))).code).toBe(230011);
    const other = await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2('x')) } });
    emulator.deleteMessage(other.data!.message_id!);
    expect((await sdkFailure(client.im.v1.message.patch({ path: { message_id: other.data!.message_id! }, data: { content: JSON.stringify(card2('y')) } }))).code).toBe(231003);
    expect(() => emulator.recall(id)).toThrow(/cannot go from recalled to recalled/);
    expect(emulator.message(id)!.card).toEqual(card2('start'));
  });

  it('answers 230031 for messages 14 days old, by aging or by the clock', async () => {
    const { patch, id, clock, client } = await setup();
    emulator.age(id, 14 * DAY - 1);
    expect((await patch(card2('still ok'))).code).toBe(0);
    clock.advance(1);
    const failure = await sdkFailure(patch(card2('too late')));
    expect([failure.status, failure.code]).toEqual([400, 230031]);
    const fresh = await client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(card2('x')) } });
    emulator.age(fresh.data!.message_id!, 15 * DAY);
    expect((await sdkFailure(client.im.v1.message.patch({ path: { message_id: fresh.data!.message_id! }, data: { content: JSON.stringify(card2('y')) } }))).code).toBe(230031);
  });

  it('limits sends to 5 per second per chat (230020)', async () => {
    const clock = createManualClock(0);
    emulator = await startFeishuEmulator({ clock });
    const client = sdkClient(emulator);
    const send = (chat: string) =>
      client.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: chat, msg_type: 'text', content: '{"text":"x"}' } });
    for (let i = 0; i < 5; i++) expect((await send('oc_busy')).code).toBe(0);
    expect((await sdkFailure(send('oc_busy'))).code).toBe(230020);
    expect((await send('oc_quiet')).code).toBe(0);
  });
});

describe('Feishu emulator: what the card docs refuse', () => {
  const v2 = (extra: Record<string, unknown>) => JSON.stringify({ schema: '2.0', body: { elements: [{ tag: 'markdown', content: 'hi' }] }, ...extra });

  it('refuses unknown top-level properties and header templates outside the enum', async () => {
    const { checkFeishuCardContent } = await import('../src/index.js');
    expect(checkFeishuCardContent(v2({ footer: {} })).ok).toBe(false);
    expect(checkFeishuCardContent(v2({ header: { title: { tag: 'plain_text', content: 't' }, template: 'pink' } })).ok).toBe(false);
    expect(checkFeishuCardContent(v2({ header: { title: { tag: 'plain_text', content: 't' }, template: 'carmine' } })).ok).toBe(true);
  });

  it('refuses markdown text sizes outside the enum', async () => {
    const { checkFeishuCardContent } = await import('../src/index.js');
    const card = (size: string) => JSON.stringify({ schema: '2.0', body: { elements: [{ tag: 'markdown', content: 'x', text_size: size }] } });
    expect(checkFeishuCardContent(card('notation')).ok).toBe(true);
    expect(checkFeishuCardContent(card('tiny')).ok).toBe(false);
  });

  it('measures the request body: a card under 30 KB whose escaped body is over it answers 230025', async () => {
    emulator = await startFeishuEmulator();
    const token = await fetchToken(emulator);
    const text = '"'.repeat(14 * 1024);
    const content = JSON.stringify({ schema: '2.0', body: { elements: [{ tag: 'markdown', content: text }] } });
    expect(Buffer.byteLength(content)).toBeLessThan(30 * 1024);
    const answer = await call(emulator, 'POST', '/open-apis/im/v1/messages?receive_id_type=chat_id', { receive_id: 'oc_x', msg_type: 'interactive', content }, token);
    expect(answer.body.code).toBe(230025);
  });
});
