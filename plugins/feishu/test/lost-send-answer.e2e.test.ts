import { afterEach, describe, expect, it } from 'vitest';
import { harness, textOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Feishu: the first send times out after the message was created', () => {
  it('the retry (same uuid, so the same message) is followed by a patch: the card ends completed, not on running', async () => {
    h = await harness({ plugin: { requestTimeoutMs: 300 } }); // the retry (after 1 s) comes after the slow first try was processed
    h.emulator.faults.add({ route: 'im.message.create', nth: 1, latencyMs: 700 });
    const card = h.cards.open('feishu');
    card.start({ title: 'lost answer' });
    card.toolStarted('t', 'shell', { command: 'make' });
    await h.until(100);
    card.toolFinished('t', 'ok');
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(messages[0]!.card, 'answer')).toBe('Finished.');
  });
});
