import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));
const greenLive = (harnessed: Harness) =>
  harnessed.emulator.messages().filter((m) => m.state === 'live' && (m.card as { header?: { template?: string } }).header?.template === 'green');

describe('a card Feishu will not edit any more (230031) that is then recalled', () => {
  // Found by a breaker run: the fresh final replied to the old card to name it; once a user recalled the old
  // card every reply was refused (230011) and the final was re-sent as a reply for ever.
  it('the fresh final goes into the chat instead of replying to the recalled card, once', async () => {
    h = await harness({ scale: 20, plugin: { mode: 'message' } });
    const emulator = h.emulator;
    let oldId = '';
    const offAge = emulator.onChange((change) => {
      if (change.kind !== 'created') return;
      offAge();
      oldId = change.message.messageId;
      emulator.age(oldId, 15 * 24 * 60 * 60 * 1000);
    });
    // As soon as Feishu refuses a patch of the old card (230031), the user recalls it.
    const recallWhenRefused = () => {
      const refused = oldId !== '' && emulator.calls({ key: oldId, route: 'im.message.patch' }).some((c) => c.code === 230031);
      if (refused && emulator.message(oldId)?.state === 'live') emulator.recall(oldId);
    };
    const offRecall = emulator.onChange(recallWhenRefused);
    const poll = setInterval(recallWhenRefused, 1);
    const card = h.cards.open('feishu');
    await h.play(card, cases.get('F10')!.events);
    const final = await card.finalDelivery;
    clearInterval(poll);
    offRecall();
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(emulator.message(oldId)?.state).not.toBe('live');
    expect(greenLive(h)).toHaveLength(1);
    // Replies to the recalled card were refused at most once before the final went into the chat.
    expect(emulator.calls({ route: 'im.message.reply' }).filter((c) => c.code === 230011).length).toBeLessThanOrEqual(1);
  }, 120_000);
});
