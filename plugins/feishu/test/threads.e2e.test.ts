import { afterEach, describe, expect, it } from 'vitest';
import { acceptedCards, harness, textOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Fix the build' },
  { at: 10, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  { at: 3_500, type: 'tool.finished', callId: 'c1', summary: '12 passed' },
  { at: 3_600, type: 'answer.delta', text: 'Fixed: the import path was wrong.' },
  { at: 3_700, type: 'run.completed' },
];

describe('Feishu: a card replying inside the topic that triggered the run (over loopback)', () => {
  it('lands in the topic of the triggering message and streams its updates there, the chat timeline gets no second card', async () => {
    h = await harness({ scale: 10 });
    const question = h.emulator.postUserMessage({ chatId: 'oc_team', text: '@bot fix the build' });
    const card = h.cards.open('feishu', undefined, { replyTo: { messageId: question.messageId, inThread: true } });
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });

    const reply = h.emulator.message(final.message!.id)!;
    expect(reply).toMatchObject({ parentId: question.messageId, rootId: question.messageId, chatId: 'oc_team' });
    expect(reply.threadId).toMatch(/^omt_/);
    // The topic lists the question and the card; the card was updated in place inside it.
    const topic = h.emulator.messages({ threadId: reply.threadId });
    expect(topic.map((m) => m.messageId)).toEqual([question.messageId, reply.messageId]);
    expect(acceptedCards(reply).length).toBeGreaterThan(1);
    expect(textOf(reply.card, 'answer')).toBe('Fixed: the import path was wrong.');
    expect(h.emulator.messages().filter((m) => m.msgType === 'interactive')).toHaveLength(1);
    expect(h.emulator.calls({ route: 'im.message.reply' })[0]!.request).toMatchObject({ reply_in_thread: true });
  });

  it('a run triggered inside an existing topic joins that topic', async () => {
    h = await harness({ scale: 10 });
    const opener = h.emulator.postUserMessage({ chatId: 'oc_team', text: 'release checklist' });
    const first = h.cards.open('feishu', undefined, { replyTo: { messageId: opener.messageId, inThread: true } });
    await h.play(first, RUN);
    const topicId = h.emulator.message((await first.finalDelivery).message!.id)!.threadId!;
    const followUp = h.emulator.postUserMessage({ chatId: 'oc_team', text: 'and the docs?', threadId: topicId });
    const second = h.cards.open('feishu', undefined, { replyTo: { messageId: followUp.messageId } });
    await h.play(second, RUN);
    const card = h.emulator.message((await second.finalDelivery).message!.id)!;
    expect(card.threadId).toBe(topicId);
    expect(h.emulator.messages({ threadId: topicId })).toHaveLength(4);
  });

  it('without inThread the card is a quoted reply in the chat, outside any topic', async () => {
    h = await harness({ scale: 10 });
    const question = h.emulator.postUserMessage({ chatId: 'oc_team', text: 'status?' });
    const card = h.cards.open('feishu', undefined, { replyTo: { messageId: question.messageId } });
    await h.play(card, RUN);
    const reply = h.emulator.message((await card.finalDelivery).message!.id)!;
    expect(reply.parentId).toBe(question.messageId);
    expect(reply.threadId).toBeUndefined();
  });

  it('a recalled triggering message: the card goes to the chat instead of failing', async () => {
    h = await harness({ scale: 10 });
    const question = h.emulator.postUserMessage({ chatId: 'oc_team', text: 'oops' });
    h.emulator.recall(question.messageId);
    const card = h.cards.open('feishu', undefined, { replyTo: { messageId: question.messageId, inThread: true } });
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    const sent = h.emulator.message(final.message!.id)!;
    expect(sent.parentId).toBeUndefined();
    expect(sent.chatId).toBe('oc_team');
  });

  it('a bad replyTo is refused at open, naming the field', async () => {
    h = await harness({ scale: 10 });
    expect(() => h!.cards.open('feishu', undefined, { replyTo: { messageId: '' } })).toThrow(/replyTo\.messageId = ""/);
  });
});
