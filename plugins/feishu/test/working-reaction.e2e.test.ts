import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Long task' },
  { at: 10, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"make"}' },
  { at: 3_500, type: 'tool.finished', callId: 'c1', summary: 'built' },
];

describe('Feishu: the opt-in "working" reaction on the bot\'s own card (over loopback)', () => {
  it('the card message carries the reaction while the run goes on and loses it at the final; the user\'s message is never touched', async () => {
    h = await harness({ scale: 10, plugin: { workingReaction: 'OnIt' } });
    const question = h.emulator.postUserMessage({ chatId: 'oc_team', text: '@bot build it' });
    const card = h.cards.open('feishu', undefined, { replyTo: { messageId: question.messageId } });
    await h.play(card, RUN);
    await h.cards.idle();
    const messageId = card.message!.id;
    expect(h.emulator.reactions(messageId)).toEqual([expect.objectContaining({ emojiType: 'OnIt' })]);
    await h.play(card, [{ at: 3_600, type: 'run.completed', answer: 'Built.' }]);
    await card.finalDelivery;
    expect(h.emulator.reactions(messageId)).toEqual([]);
    expect(h.emulator.reactions(question.messageId)).toEqual([]);
    expect(h.emulator.calls({ route: 'im.reaction.create' })).toHaveLength(1);
    expect(h.emulator.calls({ route: 'im.reaction.create' })[0]!.key).toBe(messageId);
  });

  for (const [scenario, breakFirstMessage] of [
    ['Feishu refuses patches past the edit window (230031)', (em: Harness['emulator']) => em.faults.add({ route: 'im.message.patch', respond: { status: 400, body: { code: 230031, msg: 'Message can not be edited after 14 days' } } })],
    ['every patch fails until the final moves to a fresh message', (em: Harness['emulator']) => em.faults.add({ route: 'im.message.patch', respond: { status: 500, body: { code: 1, msg: 'internal error' } } })],
    ['the card message was recalled (removing its reaction fails, ignored)', (em: Harness['emulator'], first: string) => em.recall(first)],
  ] as const) {
    it(`the final on a fresh message removes the reaction from the earlier one: ${scenario}`, async () => {
      // A patched IM card: the broken first message refuses patches, which a CardKit card never sends.
      h = await harness({ scale: 10, plugin: { workingReaction: 'OnIt', mode: 'message' } });
      const card = h.cards.open('feishu');
      await h.play(card, RUN.slice(0, 2));
      await h.cards.idle();
      const first = card.message!.id;
      expect(h.emulator.reactions(first)).toEqual([expect.objectContaining({ emojiType: 'OnIt' })]);
      breakFirstMessage(h.emulator, first);
      await h.play(card, [...RUN.slice(2), { at: 3_600, type: 'run.completed', answer: 'Built.' }]);
      const final = await card.finalDelivery;
      expect(final).toMatchObject({ ok: true, freshMessage: true });
      expect(final.message!.id).not.toBe(first);
      expect(h.emulator.reactions(final.message!.id)).toEqual([]);
      if (h.emulator.message(first)!.state === 'recalled') {
        expect(h.emulator.calls({ route: 'im.reaction.delete' }).filter((call) => call.key === first)).toEqual([expect.objectContaining({ outcome: 'rejected' })]);
      } else {
        expect(h.emulator.reactions(first)).toEqual([]);
      }
      // Failed patches, their retries and the move to a fresh message: many loopback calls, slow on a busy machine.
    }, 60_000);
  }

  it('`true` means the Typing emoji; off by default', async () => {
    h = await harness({ scale: 10, plugin: { workingReaction: true } });
    const card = h.cards.open('feishu');
    await h.play(card, RUN);
    await h.cards.idle();
    expect(h.emulator.reactions(card.message!.id).map((r) => r.emojiType)).toEqual(['Typing']);
    card.complete();
    await card.finalDelivery;
    await h.close();
    h = await harness({ scale: 10 });
    const plain = h.cards.open('feishu');
    await h.play(plain, RUN);
    plain.complete();
    await plain.finalDelivery;
    expect(h.emulator.calls({ route: 'im.reaction.create' })).toHaveLength(0);
  });

  it('a refused reaction (unknown emoji type) never holds the card back', async () => {
    h = await harness({ scale: 10, plugin: { workingReaction: 'NotAnEmoji' } });
    const card = h.cards.open('feishu');
    await h.play(card, RUN);
    card.complete('done');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ route: 'im.reaction.create' })[0]).toMatchObject({ outcome: 'rejected' });
    expect(h.emulator.calls({ route: 'im.reaction.delete' })).toHaveLength(0);
  });

  it('a final-only card (progressive off) gets no reaction', async () => {
    h = await harness({ scale: 10, plugin: { workingReaction: 'OnIt', progressive: false } });
    const card = h.cards.open('feishu');
    await h.play(card, RUN);
    card.complete('done');
    await card.finalDelivery;
    expect(h.emulator.calls({ route: 'im.reaction.create' })).toHaveLength(0);
  });

  it('refuses a working reaction that is not an emoji type name, naming the field', async () => {
    const { feishu } = await import('../src/index.js');
    expect(() => feishu({ appId: 'cli_x', appSecret: 's', receiveId: 'oc_x', workingReaction: 'thumbs up!' })).toThrow(/workingReaction/);
  });
});
