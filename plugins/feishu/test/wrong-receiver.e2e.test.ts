import { afterEach, describe, expect, it } from 'vitest';
import { classifyFeishuError, FeishuApiError } from '../src/transport/classify.js';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Wrong chat' },
  { at: 100, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"make"}' },
  { at: 200, type: 'answer.delta', text: 'Done.' },
  { at: 300, type: 'run.completed' },
];

describe('a receiver the bot cannot reach', () => {
  it('an invalid receive_id (230034): no retry ladder, the final fails after one try with one error naming the receiver', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu', 'oc-not-a-chat');
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', attempts: 1 });
    expect(final.error).toContain('chat_id oc-not-a-chat');
    expect(final.error).toContain('230034');
    // Messages sent (a CardKit card, the default, also creates its entity first: not a send to the receiver).
    const sends = h.emulator.calls().filter((call) => call.route === 'im.message.create');
    expect(sends.length).toBeLessThanOrEqual(2);
    const errors = h.logger.lines.filter((line) => line.startsWith('error '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('oc-not-a-chat');
  });

  it('the codes that say the receiver cannot be reached are target failures; a payload problem is not', () => {
    expect(classifyFeishuError(new FeishuApiError(400, 230002, 'The bot can not be outside the group.')).kind).toBe('target');
    expect(classifyFeishuError(new FeishuApiError(400, 230013, 'Bot has NO availability to this user.')).kind).toBe('target');
    expect(classifyFeishuError(new FeishuApiError(400, 230001, 'Your request contains an invalid request parameter. receive_id')).kind).toBe('target');
    expect(classifyFeishuError(new FeishuApiError(400, 230001, 'Your request contains an invalid request parameter. card')).kind).toBe('rejected');
    expect(classifyFeishuError(new FeishuApiError(400, 230099, 'Failed to create card content.')).kind).toBe('rejected');
  });
});
