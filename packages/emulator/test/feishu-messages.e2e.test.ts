import { afterEach, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator, type FeishuMessageChange } from '../src/index.js';
import { card2, sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator;
afterEach(() => emulator?.close());

const send = (client: ReturnType<typeof sdkClient>, content: unknown, uuid?: string, receiveId = 'oc_team') =>
  client.im.v1.message.create({
    params: { receive_id_type: 'chat_id' },
    data: { receive_id: receiveId, msg_type: 'interactive', content: JSON.stringify(content), ...(uuid && { uuid }) },
  });

describe('Feishu emulator: send, reply, patch through the official SDK', () => {
  it('sends a card with real-looking ids and reads it back', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const sent = await send(client, card2('**hello**'));
    expect(sent.code).toBe(0);
    expect(sent.data).toMatchObject({ msg_type: 'interactive', chat_id: 'oc_team', deleted: false, updated: false, sender: { id_type: 'app_id', sender_type: 'app' } });
    expect(sent.data!.message_id).toMatch(/^om_[0-9a-f]{32}$/);
    expect(sent.data!.create_time).toMatch(/^\d{13}$/);
    const stored = emulator.message(sent.data!.message_id!)!;
    expect(stored.card).toEqual(card2('**hello**'));
    expect(stored.history.map((h) => [h.route, h.outcome])).toEqual([['im.message.create', 'accepted']]);
  });

  it('gives p2p receivers a stable oc_ chat and refuses receive ids of the wrong shape (230034)', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const toUser = (id: string) =>
      client.im.v1.message.create({ params: { receive_id_type: 'open_id' }, data: { receive_id: id, msg_type: 'text', content: '{"text":"hi"}' } });
    const a = await toUser('ou_alice');
    const b = await toUser('ou_alice');
    expect(a.data!.chat_id).toMatch(/^oc_[0-9a-f]{32}$/);
    expect(b.data!.chat_id).toBe(a.data!.chat_id);
    expect((await sdkFailure(toUser('oc_not_a_user'))).code).toBe(230034);
  });

  it('de-duplicates sends with the same uuid for one hour: same message, no second one', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const first = await send(client, card2('one'), 'run-42');
    const retry = await send(client, card2('one (retried)'), 'run-42');
    expect(retry.data!.message_id).toBe(first.data!.message_id);
    expect(emulator.messages()).toHaveLength(1);
    expect(emulator.message(first.data!.message_id!)!.card).toEqual(card2('one'));
    const other = await send(client, card2('two'), 'run-43');
    expect(other.data!.message_id).not.toBe(first.data!.message_id);
  });

  it('replies, in a thread when asked, keeping root and parent ids', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const root = await send(client, card2('question'));
    const reply = await client.im.v1.message.reply({
      path: { message_id: root.data!.message_id! },
      data: { msg_type: 'interactive', content: JSON.stringify(card2('answer')), reply_in_thread: true, uuid: 'r1' },
    });
    expect(reply.data).toMatchObject({ root_id: root.data!.message_id, parent_id: root.data!.message_id, chat_id: 'oc_team' });
    expect(reply.data!.thread_id).toMatch(/^omt_/);
    // The message replied to in thread is now a topic: a plain reply to it joins the topic.
    const joined = await client.im.v1.message.reply({
      path: { message_id: root.data!.message_id! },
      data: { msg_type: 'interactive', content: JSON.stringify(card2('answer 2')) },
    });
    expect(joined.data!.thread_id).toBe(reply.data!.thread_id);
    expect(emulator.messages({ threadId: reply.data!.thread_id! }).map((m) => m.messageId)).toEqual([
      root.data!.message_id, reply.data!.message_id, joined.data!.message_id,
    ]);
    const other = await send(client, card2('another question'));
    const plain = await client.im.v1.message.reply({
      path: { message_id: other.data!.message_id! },
      data: { msg_type: 'interactive', content: JSON.stringify(card2('answer 3')) },
    });
    expect(plain.data!.thread_id).toBeUndefined();
    expect((await sdkFailure(client.im.v1.message.reply({ path: { message_id: 'om_missing' }, data: { msg_type: 'text', content: '{"text":"x"}' } }))).code).toBe(230001);
  });

  it('patches a card, keeps the full history and tells subscribers', async () => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const changes: FeishuMessageChange[] = [];
    const off = emulator.onChange((c) => changes.push(c));
    const sent = await send(client, card2('v1'));
    const id = sent.data!.message_id!;
    const patched = await client.im.v1.message.patch({ path: { message_id: id }, data: { content: JSON.stringify(card2('v2')) } });
    expect(patched).toMatchObject({ code: 0, msg: 'success' });
    await sdkFailure(client.im.v1.message.patch({ path: { message_id: id }, data: { content: '{not json' } }));
    off();
    await client.im.v1.message.patch({ path: { message_id: id }, data: { content: JSON.stringify(card2('v3')) } });
    const stored = emulator.message(id)!;
    expect(stored.card).toEqual(card2('v3'));
    expect(stored.updates).toBe(2);
    expect(stored.history.map((h) => [h.route, h.outcome, h.code])).toEqual([
      ['im.message.create', 'accepted', 0],
      ['im.message.patch', 'accepted', 0],
      ['im.message.patch', 'rejected', 230099],
      ['im.message.patch', 'accepted', 0],
    ]);
    expect(stored.history.every((h) => typeof h.at === 'number')).toBe(true);
    expect(changes.map((c) => [c.kind, (c.message.card as any).body.elements[0].content])).toEqual([['created', 'v1'], ['updated', 'v2']]);
    expect(emulator.counts()['im.message.patch']).toEqual({ calls: 3, accepted: 2, rejected: 1 });
  });

  it('refuses to patch a message another app sent (230027) and non-card messages (230001)', async () => {
    const apps = [{ appId: 'cli_a', appSecret: 'sa' }, { appId: 'cli_b', appSecret: 'sb' }];
    emulator = await startFeishuEmulator({ apps });
    const a = sdkClient(emulator, apps[0]);
    const b = sdkClient(emulator, apps[1]);
    const sent = await send(a, card2('mine'));
    expect((await sdkFailure(b.im.v1.message.patch({ path: { message_id: sent.data!.message_id! }, data: { content: JSON.stringify(card2('x')) } }))).code).toBe(230027);
    const text = await a.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: 'oc_team', msg_type: 'text', content: '{"text":"t"}' } });
    expect((await sdkFailure(a.im.v1.message.patch({ path: { message_id: text.data!.message_id! }, data: { content: JSON.stringify(card2('x')) } }))).code).toBe(230001);
  });
});
