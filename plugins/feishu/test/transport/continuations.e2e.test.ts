import { afterEach, describe, expect, it } from 'vitest';
import { harness, textOf, type Harness } from '../harness.js';
import { f05Answer, viewOf } from '../views.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const longAnswer = [
  { at: 0, type: 'run.started', title: 'Long answer', locale: 'en' },
  { at: 10, type: 'answer.delta', text: f05Answer() },
  { at: 500, type: 'run.completed' },
];

describe('continuation parts (renderer and transport side)', () => {
  it('the renderer gives the main card and the parts that did not fit; a short answer has none', async () => {
    h = await harness();
    const { renderer } = h.plugin;
    const view = viewOf(longAnswer, 600);
    const parts = renderer.renderContinuations!(view);
    expect(parts.length).toBeGreaterThanOrEqual(1);
    expect(textOf(renderer.render(view), 'answer_notice')).toContain(`the rest continues in the ${parts.length} card`);
    expect(textOf(parts.at(-1), 'answer')).toContain('END-OF-ANSWER');
    expect(renderer.renderContinuations!(viewOf([{ at: 0, type: 'run.started' }, { at: 1, type: 'run.completed' }], 10))).toEqual([]);
  });

  it('a part sent with replyTo is a reply to the main message; a retry with the same key sends nothing new', async () => {
    h = await harness();
    const { renderer, transport } = h.plugin;
    const view = viewOf(longAnswer, 600);
    const main = await transport.send({ target: undefined, payload: renderer.render(view), idempotencyKey: 'run-1', replacing: false });
    const [part] = renderer.renderContinuations!(view);
    const request = { target: undefined, payload: part!, idempotencyKey: 'run-1-part2', replacing: false, replyTo: main };
    const reply = await transport.send(request);
    expect(await transport.send(request)).toEqual(reply);
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ messageId: reply.id, parentId: main.id });
    // a part is patched in place like any card
    const before = h.emulator.messages()[1]!.history.length;
    await transport.update({ message: reply, payload: part!, final: true });
    const history = h.emulator.messages()[1]!.history;
    expect(history).toHaveLength(before + 1);
    expect(history.at(-1)).toMatchObject({ outcome: 'accepted' });
    expect(h.emulator.messages()).toHaveLength(2);
  });
});
