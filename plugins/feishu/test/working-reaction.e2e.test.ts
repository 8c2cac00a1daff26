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
