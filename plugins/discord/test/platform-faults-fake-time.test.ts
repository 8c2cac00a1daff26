import { LONE_SURROGATE, faultCase, loadFaultCases, stringsIn } from '@progresscard/core/testing';
import type { DiscordMessageSnapshot } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { embedOf } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

/**
 * More field fault cases for Discord (F04, F09, F13, F20; F12, F14, F16 of the project's shared case collection,
 * copied into fixtures/faults-more.jsonl with Discord's answers), on fake time with the emulator in
 * process (in-process.ts); budgets are learned from the headers on the same faked clock.
 */
const cases = loadFaultCases(new URL('./fixtures/faults-more.jsonl', import.meta.url));
const EDIT = 'messages.edit';
const CREATE = 'messages.create';
const fail = (status: number, message: string, code = 0) => ({ status, body: { message, code } });
const description = (m: Parameters<typeof embedOf>[0]) => embedOf(m).description ?? '';
/** What a message shows: its card's description. */
const TEXT = (m: DiscordMessageSnapshot) => description(m);
const bodyText = (call: { card?: unknown }) => JSON.stringify(call.card ?? '');

let h: InProcess | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('field fault cases, more (Discord, emulator in process, fake time)', () => {
  it('F04 one failed edit (500) and one refused (400 50035) never silence the rest: later ticks still show the elapsed time, the card ends completed', async () => {
    h = inProcess();
    h.emulator.faults.add({ route: EDIT, nth: 1, respond: fail(500, '500: Internal Server Error') });
    h.emulator.faults.add({ route: EDIT, nth: 2, respond: fail(400, 'Invalid Form Body', 50035) });
    const card = h.cards.open('discord');
    await h.play(card, faultCase(cases, 'F04').events);
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    const edits = message!.history.filter((call) => call.route === EDIT);
    const lastRefused = edits.findLastIndex((call) => call.outcome !== 'accepted');
    expect(lastRefused).toBeGreaterThanOrEqual(1);
    // Ticks after the refusals still changed the card while the tool ran (its elapsed time).
    const later = edits.slice(lastRefused + 1).filter((call) => call.outcome === 'accepted' && !/Completed/.test(bodyText(call)));
    expect(later.length).toBeGreaterThanOrEqual(2);
    expect(embedOf(message).title).toMatch(/Completed/);
    expect(description(message)).toContain('Waited 20 seconds.');
  });

  it('F15 the tool that asked for approval finished: the card stops showing the wait, and ends completed', async () => {
    h = inProcess();
    const card = h.cards.open('discord');
    const events = faultCase(cases, 'F15').events;
    // the approval is asked at 200 ms; the tool that asked finishes at 6 s; the model thinks until 15 s
    await h.play(card, events.filter((event) => Number(event.at) <= 6000));
    expect(embedOf(h.emulator.messages()[0]!).title).toMatch(/Waiting/);
    await h.time.advance(6_000);
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(embedOf(message!).title).not.toMatch(/Waiting/);
    await h.play(card, events.filter((event) => Number(event.at) > 6000));
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    expect(embedOf(h.emulator.messages()[0]!).title).toMatch(/Completed/);
  });

  it('F09 no call for an unchanged card: empty deltas send nothing, no ticker without a running tool', async () => {
    h = inProcess();
    const card = h.cards.open('discord');
    await h.play(card, faultCase(cases, 'F09').events.slice(0, -1));
    await h.time.advance(10_000);
    const [message] = h.emulator.messages();
    const bodies = message!.history.filter((call) => call.outcome === 'accepted').map(bodyText);
    // every accepted call changed what the message shows
    for (let i = 1; i < bodies.length; i++) expect(bodies[i]).not.toBe(bodies[i - 1]);
    const calls = message!.history.length;
    await h.time.advance(30_000);
    expect(h.emulator.messages()[0]!.history).toHaveLength(calls);
    card.push({ type: 'run.completed', at: Date.now() });
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  });

  it('F13 three refused redraws in a row (502 for 4 s): the card resumes its refreshes after the platform recovers, and ends completed', async () => {
    h = inProcess();
    h.emulator.faults.add({ route: EDIT, window: { fromMs: 2500, toMs: 6500 }, respond: fail(502, 'Bad Gateway') });
    const card = h.cards.open('discord');
    await h.play(card, faultCase(cases, 'F13').events);
    expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    const edits = message!.history.filter((call) => call.route === EDIT);
    expect(edits.some((call) => call.outcome !== 'accepted')).toBe(true);
    // refreshes after the recovery, while the tool still ran (it finishes at 40 s)
    const resumed = edits.filter((call) => call.outcome === 'accepted' && call.at >= message!.createdAt + 6500 && call.at < message!.createdAt + 40_000);
    expect(resumed.length).toBeGreaterThanOrEqual(2);
    expect(description(message)).toContain('All 318 integration tests pass.');
  });

  it('F20 every continuation reply refused (500): finalDelivery is not ok and names the missing parts, a warning names them, the card says what was not delivered', async () => {
    h = inProcess();
    const card = h.cards.open('discord');
    const [started, completed] = faultCase(cases, 'F20').events;
    card.push({ ...started!, at: Date.now() });
    await h.time.advance(2000);
    expect(h.emulator.messages()).toHaveLength(1);
    // From now on every create (only continuation replies are created: the card exists) fails.
    h.emulator.faults.add({ route: CREATE, respond: fail(500, '500: Internal Server Error') });
    const answer = Array.from({ length: 850 }, (_, i) => (i % 40 === 0 ? '```js\nconst line = 1;\n```' : `- item ${i}: prose that goes on for a while`)).join('\n');
    card.push({ ...completed!, answer, at: Date.now() });
    const final = await h.settle(card.finalDelivery, 300_000);
    expect(final).toMatchObject({ ok: false, status: 'completed', error: expect.stringMatching(/^continuation parts [\d, ]+ of \d+ undeliverable$/) });
    const warning = h.logger.entries.find((e) => e.message.includes('continuation parts undeliverable'));
    expect(warning?.fields).toMatchObject({ parts: expect.any(Array) });
    const [message, ...parts] = h.emulator.messages();
    expect(parts).toEqual([]);
    expect(embedOf(message).title).toMatch(/Completed/);
    // The card does not promise follow-up messages that never came: it says what was not delivered.
    expect(JSON.stringify(message!.embeds)).not.toMatch(/continues in \d+/);
    expect(JSON.stringify(message!.embeds)).toMatch(/The rest of this answer \(\d+ characters\) could not be delivered/);
  });

  describe('streamed text (F12, F14, F16: no platform fault)', () => {
    async function played(id: string) {
      h = inProcess();
      const card = h.cards.open('discord');
      await h.play(card, faultCase(cases, id).events);
      expect(await h.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
      expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
      return h.emulator.messages();
    }

    it('F12 an emoji split across deltas and length cuts: no call carries half an emoji', async () => {
      const messages = await played('F12');
      for (const m of messages) for (const call of m.history) for (const text of stringsIn(call.card)) expect(text).not.toMatch(LONE_SURROGATE);
      expect(messages.flatMap((m) => m.history).length).toBeGreaterThan(1);
    });

    it('F14 answer text before and after a tool call stays apart', async () => {
      const [message] = await played('F14');
      expect(TEXT(message!)).toMatch(/first\.\s+The timeout is 30 s\./);
    });

    it('F16 an unmatched backtick and a bare < mid-stream: every call parses, the last paragraph is shown', async () => {
      const [message] = await played('F16');
      expect(TEXT(message!)).toContain('The last paragraph must stay visible.');
      expect(TEXT(message!)).toContain('x < 10');
    });
  });
});
