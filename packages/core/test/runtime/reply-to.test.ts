import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('cards opened as a reply to the triggering message (replyTo)', () => {
  it('the card message is sent as a reply to it, in its thread when asked; updates edit that reply', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { replyTo: { messageId: 'om_question', inThread: true } });
    card.start({ title: 'Fix the build' });
    await settle(2000);
    card.complete('Done.');
    await card.finalDelivery;
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')).toMatchObject({ replyToMessage: { messageId: 'om_question', inThread: true } });
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('in card-per-turn mode every turn\'s card replies to the same message; inThread defaults to false', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { replyTo: { messageId: 'om_question' }, cardPer: 'turn' });
    card.roundStarted(1);
    card.toolStarted('a', 'read_file', '{"path":"a.ts"}');
    card.toolFinished('a', '10 lines');
    await settle(1000);
    card.roundStarted(2);
    card.answer('Second turn answer');
    await settle(1000);
    card.complete();
    await settle(5000);
    await card.finalDelivery;
    const sent = [...channel.messages.values()];
    expect(sent.length).toBeGreaterThan(1);
    for (const message of sent) expect(message.replyToMessage).toEqual({ messageId: 'om_question', inThread: false });
  });

  it('without replyTo the card is a normal message', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'x' });
    card.complete();
    await card.finalDelivery;
    expect(channel.messages.get('m1')!.replyToMessage).toBeUndefined();
  });

  it.each([
    [{ messageId: '' }, /replyTo\.messageId = ""/],
    [{ messageId: 42 }, /replyTo\.messageId = 42/],
    [{ messageId: 'om_1', inThread: 'yes' }, /replyTo\.inThread = "yes"/],
  ])('refuses %j at open, naming the field', (replyTo, message) => {
    const { cards } = setup();
    expect(() => cards.open('memory', undefined, { replyTo: replyTo as never })).toThrow(message);
  });
});
