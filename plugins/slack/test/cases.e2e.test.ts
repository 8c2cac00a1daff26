import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { f05Answer } from '../../feishu/test/views.js';
import { acceptedCards, blockText, harness, notOlder, progressOf, statusOf, type Harness } from './harness.js';

/** Field fault cases for Slack: the shared cases with Slack's platform answers (fixtures/faults.jsonl). */
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const UPDATE = 'chat.update';
const POST = 'chat.postMessage';
const ratelimited = (seconds: number) => ({ status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': String(seconds) } });

describe('field fault cases (Slack, through the emulator)', () => {
  it('F01 ratelimited mid-run: waits Retry-After, latest state wins, never older, one message', async () => {
    const c = cases.get('F01')!;
    h = await harness({ scale: 10 });
    // "chat.update #2" of the case is the message's second call: its first update
    h.emulator.faults.add({ route: UPDATE, nth: 1, respond: ratelimited(1) });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    const updates = messages[0]!.history.filter((x) => x.route === UPDATE);
    expect(updates[0]).toMatchObject({ outcome: 'rejected', status: 429 });
    expect(statusOf(messages[0]!.blocks)).toBe('Completed');
    expect(blockText(messages[0]!.blocks, 'answer_')).toBe('All tests pass. The parser now accepts trailing commas.');
    const cards = acceptedCards(messages[0]!);
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    // the retry waited for Retry-After (1 s) instead of hammering
    expect(updates[1]!.receivedAt! - updates[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('F02 burst of state changes: one request in flight, never stale, each call after the previous answer', async () => {
    const c = cases.get('F02')!;
    h = await harness({ scale: 5 });
    h.emulator.faults.add({ route: UPDATE, latencyMs: 400 });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.messages()).toHaveLength(1);
    const message = h.emulator.messages()[0]!;
    expect(message.maxConcurrentCalls).toBe(1);
    const cards = acceptedCards(message);
    for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
    // One update at a time is maxConcurrentCalls above (the emulator counts overlapping calls), and the
    // rate limit is the emulator's verdict (every call accepted below), not a wall-clock measure.
    expect(blockText(message.blocks, 'answer_')).toBe('Found it: an off-by-one in the lexer.');
    expect(message.history.every((x) => x.outcome === 'accepted')).toBe(true);
  });

  it('F05 content over the limits: nothing refused, the rest follows in thread replies, once each', async () => {
    const c = cases.get('F05')!;
    const events = c.events.map((e) => (e.type === 'answer.delta' ? { ...e, text: f05Answer() } : e));
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack', undefined, { locale: 'en' });
    await h.play(card, events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]); // no invalid_blocks, no msg_too_long
    const [first, ...replies] = h.emulator.messages();
    expect(first!.ts).toBe(final.message!.id);
    expect(statusOf(first!.blocks)).toBe('Completed');
    expect(blockText(first!.blocks, 'notice')).toMatch(/the rest continues in \d repl(y|ies) in the thread/);
    expect(replies.length).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect(reply.threadTs).toBe(first!.ts);
    expect(blockText(replies.at(-1)!.blocks, 'answer_')).toContain('END-OF-ANSWER');
    // every section renders alone: code fences balanced in each
    for (const m of [first!, ...replies])
      for (const block of (m.blocks ?? []) as { text?: { text: string } }[]) expect(((block.text?.text ?? '').match(/```/g) ?? []).length % 2).toBe(0);
    // agent text never becomes Slack markup
    expect(JSON.stringify(first!.blocks)).not.toMatch(/<at id|<font/);
  });

  it('F06 message deleted during the run: one call hits it, ticker stops, a fresh card ends completed', async () => {
    const c = cases.get('F06')!;
    h = await harness({ scale: 20 });
    const card = h.cards.open('slack');
    const playing = h.play(card, c.events);
    await h.until(7000);
    const first = h.emulator.messages()[0]!;
    h.emulator.deleteMessage(first.ts);
    await h.until(13_000);
    expect(h.cards.diagnostics().tickingCards).toBe(0);
    expect(h.emulator.messages()).toHaveLength(1);
    await playing;
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const calls = h.emulator.calls({ key: first.ts, route: UPDATE });
    const firstGone = calls.findIndex((x) => x.msg === 'message_not_found');
    expect(firstGone).toBeGreaterThanOrEqual(0);
    expect(calls.length - firstGone - 1).toBeLessThanOrEqual(1);
    const fresh = h.emulator.messages()[1]!;
    expect(fresh.ts).toBe(final.message!.id);
    expect(statusOf(fresh.blocks)).toBe('Completed');
    expect(blockText(fresh.blocks, 'answer_')).toBe('Deployed.');
    expect(JSON.stringify(fresh.blocks)).not.toMatch(/deleted|message_not_found/i);
  });

  it('F10 edit window closed: one failed call, no retry loop, the final goes out once as a fresh card', async () => {
    const c = cases.get('F10')!;
    h = await harness({ scale: 20 });
    const off = h.emulator.onChange((change) => {
      if (change.kind !== 'posted') return;
      off();
      h!.emulator.closeEditWindow(change.message.ts);
    });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.until(9100 + 3000);
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: old!.ts, route: UPDATE }).map((x) => x.msg)).toEqual(['edit_window_closed']);
    expect(statusOf(fresh!.blocks)).toBe('Completed');
    expect(blockText(fresh!.blocks, 'answer_')).toBe('Released.');
  });

  it('F07 workspace rate limit: the channel pauses for Retry-After, updates coalesce, the card ends completed', async () => {
    const c = cases.get('F07')!;
    h = await harness({ scale: 1 });
    h.emulator.faults.setOrigin(h.t0);
    h.emulator.faults.add({ route: UPDATE, window: { fromMs: 1000, toMs: 3000 }, respond: ratelimited(2) });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(statusOf(message!.blocks)).toBe('Completed');
    expect(blockText(message!.blocks, 'answer_')).toBe('Here is the summary.');
    const limited = message!.history.filter((x) => x.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeLessThanOrEqual(2); // Retry-After 2 s honoured: at most one refused call per pause
    for (const accepted of acceptedCards(message!)) expect(JSON.stringify(accepted)).not.toMatch(/ratelimited|429/);
  });

  it('F08 multi-block run accumulates in one card: tool summary and answer in the final card', async () => {
    const c = cases.get('F08')!;
    h = await harness({ scale: 5 });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ route: POST })).toHaveLength(1);
    const message = h.emulator.messages()[0]!;
    expect(blockText(message.blocks, 'tools')).toContain('read_file');
    expect(blockText(message.blocks, 'tools')).toContain('42 lines');
    expect(blockText(message.blocks, 'answer_')).toContain('The timeout is 30 s.');
    expect(message.maxConcurrentCalls).toBe(1);
  });
});
