import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { f05Answer } from '../../feishu/test/views.js';
import { acceptedBodies, embedOf, harness, type Harness } from './harness.js';

/**
 * Field fault cases for Discord: the shared cases (the project's field fault case collection) with
 * Discord's platform answers (fixtures/faults.jsonl). Real time: the plugin paces by the limits the
 * emulator announces in wall-clock seconds.
 */
const cases = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const EDIT = 'messages.edit';
const CREATE = 'messages.create';
const tooMany = (seconds: number, global = false) => ({ status: 429, body: { message: 'You are being rate limited.', retry_after: seconds, global }, headers: { 'retry-after': String(Math.ceil(seconds)), ...(global ? { 'x-ratelimit-global': 'true' } : {}) } });
const description = (m: Parameters<typeof embedOf>[0]) => embedOf(m).description ?? '';

describe('field fault cases (Discord, through the emulator)', () => {
  it('F01 429 mid-run: waits retry_after, latest state wins, one message', async () => {
    h = await harness();
    h.emulator.faults.add({ route: EDIT, nth: 1, respond: tooMany(1) });
    const card = h.cards.open('discord');
    await h.play(card, cases.get('F01')!.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    const edits = message!.history.filter((x) => x.route === EDIT);
    expect(edits[0]).toMatchObject({ outcome: 'rejected', status: 429 });
    expect(edits[1]!.receivedAt! - edits[0]!.at).toBeGreaterThanOrEqual(900);
    expect(embedOf(message).title).toMatch(/Completed/);
    expect(description(message)).toContain('All tests pass. The parser now accepts trailing commas.');
  });

  it('F02 slow edits: one request in flight, nothing refused', async () => {
    h = await harness();
    h.emulator.faults.add({ route: EDIT, latencyMs: 400 });
    const card = h.cards.open('discord');
    await h.play(card, cases.get('F02')!.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const [message] = h.emulator.messages();
    expect(message!.maxConcurrentCalls).toBe(1);
    expect(description(message)).toContain('Found it: an off-by-one in the lexer.');
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  });

  it('F05 answer over the embed limits: nothing refused, the rest continues in replies to the card', async () => {
    const events = cases.get('F05')!.events.map((e) => (e.type === 'answer.delta' ? { ...e, text: f05Answer() } : e));
    h = await harness();
    const card = h.cards.open('discord');
    await h.play(card, events);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]); // no 50035
    const [first, ...parts] = h.emulator.messages();
    expect(first!.id).toBe(final.message!.id);
    expect(description(first)).toMatch(/the rest continues in \d+ replies below/);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const part of parts) expect(part.replyTo).toBe(first!.id);
    for (const m of [first!, ...parts]) expect(((description(m).match(/^```/gm) ?? []).length) % 2).toBe(0);
    expect(description(parts.at(-1))).toContain('END-OF-ANSWER');
  });

  it('F06 message deleted during the run: one call hits 10008, a fresh card ends completed', async () => {
    h = await harness();
    const card = h.cards.open('discord');
    // the 30 s script at 5× speed (the deletion at 7000 ms of script time, 1400 ms here)
    const playing = h.play(card, cases.get('F06')!.events, 5);
    await h.until(1400);
    const first = h.emulator.messages()[0]!;
    h.emulator.deleteMessage(first.id);
    await playing;
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const calls = h.emulator.calls({ key: first.id, route: EDIT });
    const firstGone = calls.findIndex((x) => x.code === 10008);
    expect(firstGone).toBeGreaterThanOrEqual(0);
    expect(calls.length - firstGone - 1).toBeLessThanOrEqual(1);
    const fresh = h.emulator.messages()[1]!;
    expect(fresh.id).toBe(final.message!.id);
    expect(description(fresh)).toContain('Deployed.');
  });

  it('F10 edits capped (30046, message older than an hour): one failed call, the final once as a fresh card', async () => {
    h = await harness({ emulator: { limits: { oldMessageEdits: 0 } } });
    const off = h.emulator.onChange((change) => {
      if (change.kind !== 'posted') return;
      off();
      h!.emulator.ageMessage(change.message.id, 3_600_000);
    });
    const card = h.cards.open('discord');
    await h.play(card, cases.get('F10')!.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    await h.cards.idle();
    const [old, fresh, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(h.emulator.calls({ key: old!.id, route: EDIT }).map((x) => x.code)).toEqual([30046]);
    expect(description(fresh)).toContain('Released.');
  });

  it('F07 global rate limit for seconds: the channel pauses, the card ends completed without error text', async () => {
    h = await harness();
    h.emulator.faults.setOrigin(h.t0);
    h.emulator.faults.add({ route: EDIT, window: { fromMs: 1000, toMs: 3000 }, respond: tooMany(2, true) });
    const card = h.cards.open('discord');
    await h.play(card, cases.get('F07')!.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(description(message)).toContain('Here is the summary.');
    expect(message!.history.filter((x) => x.status === 429).length).toBeLessThanOrEqual(2);
    for (const body of acceptedBodies(message!)) expect(JSON.stringify(body)).not.toMatch(/rate limited|429/);
  });

  it('F08 multi-round run accumulates in one card', async () => {
    h = await harness();
    const card = h.cards.open('discord');
    await h.play(card, cases.get('F08')!.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ route: CREATE })).toHaveLength(1);
    const message = h.emulator.messages()[0]!;
    expect(description(message)).toContain('read_file');
    expect(description(message)).toContain('42 lines');
    expect(description(message)).toContain('The timeout is 30 s.');
  });
});
