import { loadFaultCases } from '@progresscard/core/testing';
import { DEFAULT_TELEGRAM_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { f05Answer } from '../../feishu/test/views.js';
import { acceptedTexts, harness, statusLine, type Harness } from './harness.js';

/**
 * Field fault cases for Telegram: the shared cases (the project's field fault case collection)
 * with Telegram's platform answers (fixtures/faults.jsonl), in a forum topic of a supergroup.
 */
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const EDIT = 'editMessageText';
/** How long a condition may take on a busy machine (each is met within a few ticks on an idle one). */
const WAIT = { timeout: 60_000, interval: 20 };
const SEND = 'sendMessage';
const tooMany = (seconds: number) => ({ status: 429, body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds } } });
/** How far a card has got: [finished?, tools done, answer length]. */
const progress = (text: string) => [/Completed/.test(text.split('\n')[0] ?? '') ? 1 : 0, (text.match(/done|212 passed|120 lines|42 lines/g) ?? []).length, text.length];
const notOlder = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return b[i]! > a[i]!;
  return true;
};

describe('field fault cases (Telegram forum topic, through the emulator)', () => {
  it('F01 429 mid-run: waits retry_after, latest state wins, never older, one message in the topic', async () => {
    const c = cases.get('F01')!;
    h = await harness({ scale: 10 });
    h.emulator.faults.add({ route: EDIT, nth: 1, respond: tooMany(1) });
    const card = h.cards.open('telegram');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.threadId).toBe(BOT.topic);
    const edits = messages[0]!.history.filter((x) => x.route === EDIT);
    expect(edits[0]).toMatchObject({ outcome: 'rejected', status: 429 });
    expect(statusLine(messages[0])).toMatch(/Completed/);
    expect(messages[0]!.text).toContain('All tests pass. The parser now accepts trailing commas.');
    const texts = acceptedTexts(messages[0]!);
    for (let i = 1; i < texts.length; i++) expect(notOlder(progress(texts[i - 1]!), progress(texts[i]!))).toBe(true);
    expect(edits[1]!.receivedAt! - edits[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('F02 burst of state changes: one request in flight, never stale, nothing refused', async () => {
    const c = cases.get('F02')!;
    h = await harness({ scale: 5 });
    h.emulator.faults.add({ route: EDIT, latencyMs: 400 });
    const card = h.cards.open('telegram');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(message!.maxConcurrentCalls).toBe(1);
    expect(message!.text).toContain('Found it: an off-by-one in the lexer.');
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  });

  it('F05 answer over 4096 characters: nothing refused, the rest follows in replies to the card, markup always parses', async () => {
    const c = cases.get('F05')!;
    const events = c.events.map((e) => (e.type === 'answer.delta' ? { ...e, text: f05Answer() } : e));
    h = await harness({ scale: 10 });
    const card = h.cards.open('telegram');
    await h.play(card, events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();
    // the emulator parses every HTML text: a refused one would be "can't parse entities" or "message is too long"
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [first, ...parts] = h.emulator.messages();
    expect(String(first!.messageId)).toBe(final.message!.id);
    expect(first!.text).toMatch(/the rest continues in \d+ messages below/);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const part of parts) expect(part.replyTo).toBe(first!.messageId);
    expect(parts.at(-1)!.text).toContain('END-OF-ANSWER');
    // agent text never becomes markup: the <at>/<font> of the answer are shown as text
    expect(first!.text).toContain('<at id=all>');
  });

  it('F06 message deleted during the run: one call hits it, ticker stops, a fresh card ends completed', async () => {
    const c = cases.get('F06')!;
    h = await harness({ scale: 20 });
    const card = h.cards.open('telegram');
    // The delete lands while the tool runs, and the run goes on once a tick has hit the deleted
    // message and its ticker stopped: conditions, not wall-clock windows a busy machine can overrun.
    const toolFinished = c.events.findIndex((e) => e.type === 'tool.finished');
    await h.play(card, c.events.slice(0, toolFinished));
    const first = await vi.waitFor(() => h!.emulator.messages()[0] ?? Promise.reject(new Error('no message yet')), WAIT);
    h.emulator.deleteMessage(first.chatId, first.messageId);
    const key = `${first.chatId}:${first.messageId}`;
    const gone = (x: { msg?: string }) => x.msg === 'Bad Request: message to edit not found';
    await vi.waitFor(() => expect(h!.emulator.calls({ key, route: EDIT }).some(gone)).toBe(true), WAIT);
    await vi.waitFor(() => expect(h!.cards.diagnostics().tickingCards).toBe(0), WAIT);
    // the ticker stopped without posting anything: the fresh message waits for the next update
    expect(h.emulator.messages()).toHaveLength(1);
    await h.play(card, c.events.slice(toolFinished));
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const calls = h.emulator.calls({ key, route: EDIT });
    const firstGone = calls.findIndex(gone);
    expect(firstGone).toBeGreaterThanOrEqual(0);
    expect(calls.length - firstGone - 1).toBeLessThanOrEqual(1);
    const fresh = h.emulator.messages()[1]!;
    expect(String(fresh.messageId)).toBe(final.message!.id);
    expect(statusLine(fresh)).toMatch(/Completed/);
    expect(fresh.text).toContain('Deployed.');
    }, 150_000);

  it("F10 message can't be edited: one failed call, no retry loop, the final goes out once as a fresh card", async () => {
    const c = cases.get('F10')!;
    h = await harness({ scale: 20 });
    const off = h.emulator.onChange((change) => {
      if (change.kind !== 'posted' || !change.message) return;
      off();
      h!.emulator.closeEdits(change.message.chatId, change.message.messageId);
    });
    const card = h.cards.open('telegram');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.cards.idle();
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: `${old!.chatId}:${old!.messageId}`, route: EDIT }).map((x) => x.msg)).toEqual(["Bad Request: message can't be edited"]);
    expect(statusLine(fresh)).toMatch(/Completed/);
    expect(fresh!.text).toContain('Released.');
  });

  it('F07 flood control for seconds: the channel pauses for retry_after, the card ends completed', async () => {
    const c = cases.get('F07')!;
    h = await harness({ scale: 1 });
    h.emulator.faults.setOrigin(h.t0);
    h.emulator.faults.add({ route: EDIT, window: { fromMs: 1000, toMs: 3000 }, respond: tooMany(2) });
    const card = h.cards.open('telegram');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(message!.text).toContain('Here is the summary.');
    const limited = message!.history.filter((x) => x.status === 429);
    expect(limited.length).toBeLessThanOrEqual(2);
    for (const text of acceptedTexts(message!)) expect(text).not.toMatch(/Too Many Requests|429/);
  });

  it('F08 multi-round run accumulates in one card', async () => {
    const c = cases.get('F08')!;
    h = await harness({ scale: 5 });
    const card = h.cards.open('telegram');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ route: SEND })).toHaveLength(1);
    const message = h.emulator.messages()[0]!;
    expect(message.text).toContain('read_file');
    expect(message.text).toContain('42 lines');
    expect(message.text).toContain('The timeout is 30 s.');
    expect(message.maxConcurrentCalls).toBe(1);
  });
});
