import { afterEach, describe, expect, it } from 'vitest';
import { faultCase, onFirstMessage, playOverLimitAnswer, playRateLimitMidRun } from './fault-case-runs.js';
import { acceptedCards, harness, notOlder, progressOf, textOf, type Harness } from './harness.js';

/**
 * Field fault cases as Feishu answers them (F05's answer is generated, see views.ts): the per-message
 * limit 230020 (F01), 5 updates/s a message (F02), Feishu's card markdown limits (F05) and the
 * edit window (F10). The shared behaviour (F01, F02, F05, F06, F08 on any channel) runs in
 * conformance.e2e.test.ts. The faults are on the IM card's patch route, so every card here is a
 * patched IM card (`mode: 'message'`); CardKit's answers to the same cases are in platform-faults-cardkit.e2e.test.ts.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PATCH = 'im.message.patch';

describe('field fault cases (Feishu, through the emulator)', () => {
  it('F01 rate limit answered mid-run: latest state wins, never older, one message', async () => {
    h = await harness({ scale: 10, plugin: { mode: 'message' } });
    const { calls: patches } = await playRateLimitMidRun(h, PATCH);
    // the retry waited for the per-message window instead of hammering it
    const rejectedAt = patches[1]!.at;
    expect(patches[2]!.receivedAt! - rejectedAt).toBeGreaterThanOrEqual(900);
  });

  it('F02 burst of state changes: one request in flight, never stale, under 5 updates/s', async () => {
    const c = faultCase('F02');
    h = await harness({ scale: 5, plugin: { mode: 'message' } });
    // "every call takes 400 ms to answer"
    h.emulator.faults.add({ route: PATCH, latencyMs: 400 });
    const card = h.cards.open('feishu');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const message = h.emulator.messages()[0]!;
    expect(h.emulator.messages()).toHaveLength(1);
    expect(message.maxConcurrentCalls).toBe(1);
    const cards = acceptedCards(message);
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    // Under 5 updates/s is the emulator's verdict, not a wall-clock measure here: it answers 230020
    // to a sixth patch of a message within a second, and every call below was accepted.
    expect(textOf(message.card, 'answer')).toBe('Found it: an off-by-one in the lexer.');
    expect(message.history.every((x) => x.outcome === 'accepted')).toBe(true);
  });

  it('F05 content over the limits: nothing refused, valid markdown, the main card says it was shortened', async () => {
    h = await harness({ scale: 10, plugin: { mode: 'message' } });
    const final = await playOverLimitAnswer(h);
    const rejected = h.emulator.calls({ outcome: 'rejected' });
    expect(rejected).toEqual([]); // no 230099, no 230025
    const first = h.emulator.messages()[0]!;
    expect(first.messageId).toBe(final.message!.id);
    expect(first.card).toMatchObject({ header: { template: 'green' } });
    const answer = textOf(first.card, 'answer')!;
    expect(answer.split('\n').filter((l) => /^\s{0,3}```/.test(l)).length % 2).toBe(0); // every fence closed
    expect(textOf(first.card, 'answer_notice')).toMatch(/the rest continues in the \d cards? below/);
  });


  it('F05 content over the limits: the rest follows in reply cards, once each', async () => {
    h = await harness({ scale: 10, plugin: { mode: 'message' } });
    const final = await playOverLimitAnswer(h);
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [first, ...replies] = h.emulator.messages();
    expect(first!.messageId).toBe(final.message!.id);
    expect(replies.length).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect(reply.parentId).toBe(first!.messageId);
    expect(textOf(replies.at(-1)!.card, 'answer')).toContain('END-OF-ANSWER');
    // retried finals never double the follow-ups (idempotency key per part)
    expect(new Set(replies.map((r) => r.uuid)).size).toBe(replies.length);
  });

  it('F10 card past its edit window: one failed call, no retry loop, the final goes out once as a fresh card', async () => {
    const c = faultCase('F10');
    h = await harness({ scale: 20, plugin: { mode: 'message' } });
    // "FEISHU patch answers 400 {code:230031} from the first call on" (for the card's first message)
    onFirstMessage(h, (message) =>
      h!.emulator.faults.add({ route: PATCH, key: message.messageId, respond: { status: 400, body: { code: 230031, msg: 'Message can only be updated within fourteen days' } } }),
    );
    const card = h.cards.open('feishu');
    await h.play(card, c.events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.until(9100 + 3000);
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    const toOld = h.emulator.calls({ key: old!.messageId, route: PATCH });
    expect(toOld.map((x) => x.code)).toEqual([230031]);
    expect(fresh!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(fresh!.card, 'answer')).toBe('Released.');
    const completedCards = h.emulator.messages().filter((m) => (m.card as { header?: { template?: string } }).header?.template === 'green');
    expect(completedCards).toHaveLength(1);
    // The old card does not stay "running" next to the final: the fresh card replies to it (naming it)
    // and, still inside the recall window, it is recalled.
    expect(fresh!.parentId).toBe(old!.messageId);
    expect(h.emulator.calls({ key: old!.messageId, route: 'im.message.delete' }).map((x) => x.code)).toEqual([0]);
    expect(h.emulator.message(old!.messageId)!.state).toBe('recalled');
  });

  it('a card 15 days old (230031 from the emulator\'s own edit window): recall is refused past the 24-hour recall window, so the fresh final names it as the message it replies to', async () => {
    h = await harness({ scale: 20, plugin: { mode: 'message' } });
    onFirstMessage(h, (message) => h!.emulator.age(message.messageId, 15 * 24 * 60 * 60 * 1000));
    const card = h.cards.open('feishu');
    await h.play(card, faultCase('F10').events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.until(9100 + 3000);
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: old!.messageId, route: PATCH }).map((x) => x.code)).toEqual([230031]);
    expect(h.emulator.calls({ key: old!.messageId, route: 'im.message.delete' }).map((x) => x.code)).toEqual([230009]);
    expect(old!.state).toBe('live');
    expect(fresh!.parentId).toBe(old!.messageId);
    expect(textOf(fresh!.card, 'answer')).toBe('Released.');
  });
});
