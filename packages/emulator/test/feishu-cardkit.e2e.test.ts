import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { card2, sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator;
afterEach(() => emulator?.close());

const MINUTE = 60 * 1000;

async function setup() {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  // Tokens outlive the 14 days the last test moves the clock.
  emulator = await startFeishuEmulator({ clock, tokenTtlSeconds: 30 * 24 * 3600 });
  const client = sdkClient(emulator);
  const streamingCard = { ...card2('typing'), config: { update_multi: true, streaming_mode: true } };
  const created = await client.cardkit.v1.card.create({ data: { type: 'card_json', data: JSON.stringify(streamingCard) } });
  const cardId = created.data!.card_id;
  const send = () =>
    client.im.v1.message.create({
      params: { receive_id_type: 'chat_id' },
      data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify({ type: 'card', data: { card_id: cardId } }) },
    });
  const write = (content: string, sequence: number, uuid?: string) =>
    client.cardkit.v1.cardElement.content({ path: { card_id: cardId, element_id: 'md_0' }, data: { content, sequence, ...(uuid && { uuid }) } });
  return { client, clock, cardId, send, write };
}

describe('Feishu emulator: CardKit card entities', () => {
  it('a message sent by reference shows the entity card as element writes change it; the entity can be sent once', async () => {
    const { cardId, send, write } = await setup();
    const sent = await send();
    const messageId = sent.data!.message_id!;
    expect((await write('typing more', 1)).code).toBe(0);
    const message = emulator.message(messageId)!;
    expect(message.cardId).toBe(cardId);
    expect(message.card).toMatchObject({ body: { elements: [{ element_id: 'md_0', content: 'typing more' }] } });
    expect(message.history.map((c) => c.route)).toEqual(['cardkit.card.create', 'im.message.create', 'cardkit.element.content']);
    const again = await sdkFailure(send());
    expect(again.code).toBe(230001);
  });

  it('refuses a sequence that does not increase (300317) and a reused uuid (200770)', async () => {
    const { write } = await setup();
    expect((await write('a', 5, 'u1')).code).toBe(0);
    expect((await sdkFailure(write('b', 5))).code).toBe(300317);
    expect((await sdkFailure(write('b', 4))).code).toBe(300317);
    expect((await sdkFailure(write('b', 6, 'u1'))).code).toBe(200770);
    expect((await write('b', 7, 'u2')).code).toBe(0);
  });

  it('allows 10 operations per second per entity, then 230020', async () => {
    const { clock, write } = await setup();
    for (let i = 1; i <= 10; i++) expect((await write(`v${i}`, i)).code).toBe(0);
    expect((await sdkFailure(write('v11', 11))).code).toBe(230020);
    clock.advance(1000);
    expect((await write('v12', 12)).code).toBe(0);
  });

  it('closes streaming 10 minutes after it opened: 200850 once, then 300309, until settings reopen it', async () => {
    const { client, clock, cardId, write } = await setup();
    expect((await write('a', 1)).code).toBe(0);
    clock.advance(10 * MINUTE);
    expect((await sdkFailure(write('ab', 2))).code).toBe(200850);
    expect((await sdkFailure(write('ab', 3))).code).toBe(300309);
    const reopened = await client.cardkit.v1.card.settings({ path: { card_id: cardId }, data: { settings: JSON.stringify({ config: { streaming_mode: true } }), sequence: 4 } });
    expect(reopened.code).toBe(0);
    expect((await write('ab', 5)).code).toBe(0);
    expect(emulator.cardEntity(cardId)).toMatchObject({ streaming: true, lastSequence: 5 });
  });

  it('answers 200740 for an unknown entity, 200750 after 14 days, 200860 for a card over 30 KB', async () => {
    const { client, clock, cardId, write } = await setup();
    const unknown = await sdkFailure(client.cardkit.v1.cardElement.content({ path: { card_id: '1234', element_id: 'md_0' }, data: { content: 'x', sequence: 1 } }));
    expect(unknown.code).toBe(200740);
    const big = await sdkFailure(client.cardkit.v1.card.update({ path: { card_id: cardId }, data: { card: { type: 'card_json', data: JSON.stringify(card2('x'.repeat(31 * 1024))) }, sequence: 1 } }));
    expect(big.code).toBe(200860);
    clock.advance(14 * 24 * 60 * MINUTE);
    expect((await sdkFailure(write('late', 2))).code).toBe(200750);
  });
});
