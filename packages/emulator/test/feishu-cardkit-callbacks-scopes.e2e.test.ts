import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { sdkClient, sdkFailure } from './feishu-client.js';

let emulator: FeishuEmulator | undefined;
let server: Server | undefined;
afterEach(async () => {
  await emulator?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  emulator = undefined;
  server = undefined;
});

/** An app's callback endpoint that answers every click with a card saying "clicked". */
async function answeringEndpoint(): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const card = { schema: '2.0', config: { update_multi: true }, body: { elements: [{ tag: 'markdown', element_id: 'md_0', content: 'clicked' }] } };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ toast: { type: 'success', content: 'ok' }, card: { type: 'raw', data: card } }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function cardWithButton(streaming: boolean): Record<string, unknown> {
  return {
    schema: '2.0',
    config: { update_multi: true, streaming_mode: streaming },
    body: {
      elements: [
        { tag: 'markdown', element_id: 'md_0', content: 'waiting' },
        { tag: 'button', element_id: 'ok', text: { tag: 'plain_text', content: 'OK' }, behaviors: [{ type: 'callback', value: { x: '1' } }] },
      ],
    },
  };
}

describe('Feishu emulator: clicks on CardKit cards, and missing scopes', () => {
  it.each([
    [true, false],
    [false, true],
  ])('a click on a card entity with streaming_mode %s: the callback card shows at once = %s', async (streaming, shown) => {
    emulator = await startFeishuEmulator();
    const client = sdkClient(emulator);
    const created = await client.cardkit.v1.card.create({ data: { type: 'card_json', data: JSON.stringify(cardWithButton(streaming)) } });
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: 'chat_id' },
      data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify({ type: 'card', data: { card_id: created.data!.card_id } }) },
    });
    emulator.configureCallbacks({ url: await answeringEndpoint() });
    const clicked = await emulator.click({ messageId: sent.data!.message_id!, user: 'ou_ann', button: 'OK' });
    expect(clicked.cardUpdated).toBe(shown);
    expect(clicked.cardNotShown).toBe(shown ? undefined : 'streaming');
    const text = (emulator.message(sent.data!.message_id!)!.card as { body: { elements: { content?: string }[] } }).body.elements[0]!.content;
    expect(text).toBe(shown ? 'clicked' : 'waiting');
  });

  it('missingScopes: CardKit routes answer 99991672 naming cardkit:card:write, IM sends still work', async () => {
    emulator = await startFeishuEmulator({ missingScopes: ['cardkit:card:write'] });
    const client = sdkClient(emulator);
    const refused = await sdkFailure(client.cardkit.v1.card.create({ data: { type: 'card_json', data: JSON.stringify(cardWithButton(true)) } }));
    expect(refused).toMatchObject({ code: 99991672, msg: 'Access denied. One of the following scopes is required: [cardkit:card:write].' });
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: 'chat_id' },
      data: { receive_id: 'oc_team', msg_type: 'interactive', content: JSON.stringify(cardWithButton(false)) },
    });
    expect(sent.code).toBe(0);
  });
});
