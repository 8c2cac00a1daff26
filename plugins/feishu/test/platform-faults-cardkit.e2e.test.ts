import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptedCards, harness, notOlder, progressOf, textOf, type Harness } from './harness.js';
import { f05Answer } from './views.js';

/** The shared Feishu fault cases, with `mode: 'cardkit'`: the faults land on the CardKit routes of the card entity. */
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const UPDATE = 'cardkit.card.update';
const ENTITY_ROUTES = [UPDATE, 'cardkit.card.settings', 'cardkit.element.content'] as const;
const cardkit = { mode: 'cardkit' } as const;

describe('field fault cases (Feishu mode cardkit, through the emulator)', () => {
  it('F01 rate limit answered mid-run: latest state wins, never older, one message', async () => {
    const c = cases.get('F01')!;
    h = await harness({ scale: 10, plugin: cardkit });
    h.emulator.faults.add({ route: UPDATE, nth: 2, respond: { status: 400, body: { code: 230020, msg: 'This operation triggers the frequency limit.' } } });
    const card = h.cards.open('feishu');
    // Mid-run: the tool runs until the ticker's second update has been answered with the rate limit
    // (a condition rather than a wall-clock window a busy machine can miss), then the run goes on.
    const toolStarted = c.events.findIndex((e) => e.type === 'tool.started') + 1;
    await h.play(card, c.events.slice(0, toolStarted));
    await vi.waitFor(() => expect(h!.emulator.calls({ route: UPDATE, outcome: 'rejected' })).toHaveLength(1), { timeout: 60_000, interval: 50 });
    await h.play(card, c.events.slice(toolStarted));
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    const updates = messages[0]!.history.filter((x) => x.route === UPDATE);
    expect(updates[1]).toMatchObject({ outcome: 'rejected', code: 230020 });
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(messages[0]!.card, 'answer')).toBe('All tests pass. The parser now accepts trailing commas.');
    const cards = acceptedCards(messages[0]!);
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    expect(h.emulator.calls().some((x) => x.code === 300317)).toBe(false);
  });

  it('F02 burst of state changes: one request in flight, never stale, under 10 operations/s per card entity', async () => {
    const c = cases.get('F02')!;
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
    const c = cases.get('F05')!;
    const events = c.events.map((e) => (e.type === 'answer.delta' ? { ...e, text: f05Answer() } : e));
    h = await harness({ scale: 10, plugin: cardkit });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();
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
    const c = cases.get('F06')!;
    h = await harness({ scale: 20, plugin: cardkit });
    const card = h.cards.open('feishu');
    const playing = h.play(card, c.events);
    await h.until(7000);
    const first = h.emulator.messages()[0]!;
    h.emulator.recall(first.messageId);
    await h.until(13_000);
    expect(h.cards.diagnostics().tickingCards).toBe(0);
    expect(h.emulator.messages()).toHaveLength(1);
    await playing;
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
  });

  it('F10 card entity past its 14 days (200750): one failed call, no retry loop, the final goes out once as a fresh card', async () => {
    const c = cases.get('F10')!;
    h = await harness({ scale: 20, plugin: cardkit });
    const off = h.emulator.onChange((change) => {
      if (change.kind !== 'created') return;
      off();
      for (const route of ENTITY_ROUTES)
        h!.emulator.faults.add({ route, key: change.message.cardId, respond: { status: 400, body: { code: 200750, msg: 'card is expired' } } });
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
