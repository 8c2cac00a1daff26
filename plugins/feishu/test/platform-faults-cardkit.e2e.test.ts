import { afterEach, describe, expect, it, vi } from 'vitest';
import { faultCase, onFirstMessage, playOverLimitAnswer, playRateLimitMidRun } from './fault-case-runs.js';
import { acceptedCards, harness, notOlder, progressOf, textOf, type Harness } from './harness.js';

/** The shared Feishu fault cases, with `mode: 'cardkit'`: the faults land on the CardKit routes of the card entity. */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const UPDATE = 'cardkit.card.update';
const ENTITY_ROUTES = [UPDATE, 'cardkit.card.settings', 'cardkit.element.content'] as const;
const cardkit = { mode: 'cardkit' } as const;
/** How long a condition may take on a busy machine (each is met within a few ticks on an idle one). */
const WAIT = { timeout: 60_000, interval: 20 };

describe('field fault cases (Feishu mode cardkit, through the emulator)', () => {
  it('F01 rate limit answered mid-run: latest state wins, never older, one message', async () => {
    h = await harness({ scale: 10, plugin: cardkit });
    await playRateLimitMidRun(h, UPDATE);
    expect(h.emulator.calls().some((x) => x.code === 300317)).toBe(false);
  });

  it('F02 burst of state changes: one request in flight, never stale, under 10 operations/s per card entity', async () => {
    const c = faultCase('F02');
    h = await harness({ scale: 5, plugin: cardkit });
    for (const route of ENTITY_ROUTES) h.emulator.faults.add({ route, latencyMs: 400 });
    const card = h.cards.open('feishu');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.messages()).toHaveLength(1);
    const message = h.emulator.messages()[0]!;
    expect(message.maxConcurrentCalls).toBe(1);
    const cards = acceptedCards(message);
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    const operations = message.history.filter((x) => x.route.startsWith('cardkit.') && x.route !== 'cardkit.card.create').map((x) => x.receivedAt!);
    for (let i = 10; i < operations.length; i++) expect(operations[i]! - operations[i - 10]!).toBeGreaterThanOrEqual(1000);
    expect(textOf(message.card, 'answer')).toBe('Found it: an off-by-one in the lexer.');
    expect(message.history.every((x) => x.outcome === 'accepted')).toBe(true);
  });

  it('F05 content over the limits: nothing refused; the rest follows in reply cards to the entity message', async () => {
    h = await harness({ scale: 10, plugin: cardkit });
    const final = await playOverLimitAnswer(h);
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [first, ...replies] = h.emulator.messages();
    expect(first!.messageId).toBe(final.message!.id);
    expect(first!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(first!.card, 'answer_notice')).toMatch(/the rest continues in the \d cards? below/);
    expect(replies.length).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect(reply.parentId).toBe(first!.messageId);
    expect(textOf(replies.at(-1)!.card, 'answer')).toContain('END-OF-ANSWER');
  });

  it('F06 message recalled during the run: the ticker stops, a fresh card ends completed', async () => {
    const c = faultCase('F06');
    h = await harness({ scale: 20, plugin: cardkit });
    const card = h.cards.open('feishu');
    // The recall lands while the tool runs, and the run goes on once a tick has hit the recalled card
    // and its ticker stopped: conditions, not wall-clock windows a busy machine can overrun.
    const toolFinished = c.events.findIndex((e) => e.type === 'tool.finished');
    await h.play(card, c.events.slice(0, toolFinished));
    const first = await vi.waitFor(() => h!.emulator.messages()[0] ?? Promise.reject(new Error('no message yet')), WAIT);
    h.emulator.recall(first.messageId);
    await vi.waitFor(() => expect(h!.emulator.calls({ key: first.cardId }).some((x) => x.code === 230011)).toBe(true), WAIT);
    await vi.waitFor(() => expect(h!.cards.diagnostics().tickingCards).toBe(0), WAIT);
    // the ticker stopped without posting anything: the fresh card waits for the next update
    expect(h.emulator.messages()).toHaveLength(1);
    await h.play(card, c.events.slice(toolFinished));
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const calls = h.emulator.calls({ key: first.cardId });
    const firstGone = calls.findIndex((x) => x.code === 230011);
    expect(firstGone).toBeGreaterThanOrEqual(0);
    expect(calls.length - firstGone - 1).toBeLessThanOrEqual(1);
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(2);
    expect(messages[1]!.messageId).toBe(final.message!.id);
    expect(messages[1]!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(messages[1]!.card, 'answer')).toBe('Deployed.');
    }, 150_000);

  it('F10 card entity past its 14 days (200750): one failed call, no retry loop, the final goes out once as a fresh card', async () => {
    const c = faultCase('F10');
    h = await harness({ scale: 20, plugin: cardkit });
    onFirstMessage(h, (message) => {
      for (const route of ENTITY_ROUTES) h!.emulator.faults.add({ route, key: message.cardId, respond: { status: 400, body: { code: 200750, msg: 'card is expired' } } });
    });
    const card = h.cards.open('feishu');
    await h.play(card, c.events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.until(9100 + 3000);
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: old!.cardId }).filter((x) => x.route !== 'cardkit.card.create').map((x) => x.code)).toEqual([200750]);
    expect(fresh!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(fresh!.card, 'answer')).toBe('Released.');
  });
});
