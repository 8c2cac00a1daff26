import type { CallRecord } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { feishu } from '../src/index.js';
import type { FeishuCard } from '../src/render/payload.js';
import { FeishuTransport } from '../src/transport/transport.js';
import { harness, textOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CONTENT = 'cardkit.element.content';
const SENTENCES = ['The lexer had an off-by-one. ', 'It skipped the last token of every line. ', 'I fixed the bound check. ', 'Tests cover the edge case now. ', 'All 212 tests pass.'];

/** An answer typed out sentence by sentence, one every `everyMs` of script time, then the end of the run. */
function typedRun(everyMs: number): Record<string, unknown>[] {
  return [
    { at: 0, type: 'run.started', title: 'Fix the lexer' },
    ...SENTENCES.map((text, i) => ({ at: 100 + i * everyMs, type: 'answer.delta', text })),
    { at: 200 + SENTENCES.length * everyMs, type: 'run.completed' },
  ];
}

function sequencesOf(calls: readonly CallRecord[]): number[] {
  return calls.filter((c) => c.outcome === 'accepted' && c.route.startsWith('cardkit.') && c.route !== 'cardkit.card.create').map((c) => (c.request as { sequence: number }).sequence);
}

describe('Feishu mode cardkit (through the emulator)', () => {
  it('a run ends as one message whose card entity holds the final card; the answer types out with increasing sequences', async () => {
    h = await harness({ plugin: { mode: 'cardkit', debounceMs: 300 } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, typedRun(700));
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(JSON.parse(message!.content)).toEqual({ type: 'card', data: { card_id: message!.cardId } });
    const entity = h.emulator.cardEntity(message!.cardId!)!;
    expect(entity.streaming).toBe(false);
    expect(entity.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(entity.card, 'answer')).toBe(SENTENCES.join('').trim());
    expect(textOf(message!.card, 'answer')).toBe(SENTENCES.join('').trim());
    // typed out: several element writes, each text extending the one before
    const writes = message!.history.filter((c) => c.route === CONTENT && c.outcome === 'accepted').map((c) => (c.request as { content: string }).content);
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < writes.length; i++) expect(writes[i]!.startsWith(writes[i - 1]!)).toBe(true);
    const sequences = sequencesOf(message!.history);
    for (let i = 1; i < sequences.length; i++) expect(sequences[i]).toBeGreaterThan(sequences[i - 1]!);
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    expect(h.emulator.cardEntities()).toHaveLength(1);
    // The final is one full update that closes streaming itself: no settings call after it.
    const last = message!.history.filter((c) => c.route.startsWith('cardkit.')).at(-1)!;
    expect(last).toMatchObject({ route: 'cardkit.card.update', outcome: 'accepted' });
    expect(message!.history.filter((c) => c.route === 'cardkit.card.settings')).toEqual([]);
  });

  it('a streaming window that runs out mid-answer is reopened; the rest still types out and the final lands', async () => {
    h = await harness({ plugin: { mode: 'cardkit', debounceMs: 300 }, emulator: { limits: { streamingWindowMs: 1200 } } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, typedRun(700));
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const [message, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    const history = message!.history;
    const closed = history.findIndex((c) => c.route === CONTENT && (c.code === 200850 || c.code === 300309));
    expect(closed).toBeGreaterThan(0);
    const after = history.slice(closed + 1);
    expect(after[0]).toMatchObject({ route: 'cardkit.card.settings', outcome: 'accepted', request: { settings: JSON.stringify({ config: { streaming_mode: true } }) } });
    expect(after.some((c) => c.route === CONTENT && c.outcome === 'accepted')).toBe(true);
    expect(history.some((c) => c.code === 300317)).toBe(false);
    expect(message!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(message!.card, 'answer')).toBe(SENTENCES.join('').trim());
  });

  it('a send whose message answer is lost reuses its card entity: one entity, one message', async () => {
    h = await harness({ plugin: { mode: 'cardkit', requestTimeoutMs: 300 } });
    h.emulator.faults.add({ route: 'im.message.create', nth: 1, latencyMs: 700 });
    const card = h.cards.open('feishu');
    card.start({ title: 'lost answer' });
    card.complete('Finished.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.cardEntities()).toHaveLength(1);
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(messages[0]!.card, 'answer')).toBe('Finished.');
  });

  it('another process (a restart) updating the same card sends higher sequences: the platform accepts them', async () => {
    h = await harness();
    const config = feishu.parseConfig({ appId: h.emulator.apps[0]!.appId, appSecret: h.appSecret, domain: h.emulator.baseUrl, receiveId: 'oc_team', mode: 'cardkit' });
    const card = (answer: string): FeishuCard => ({
      schema: '2.0',
      config: { update_multi: true, summary: { content: 'run' } },
      body: { elements: [{ tag: 'markdown', element_id: 'answer', content: answer }] },
    });
    const first = new FeishuTransport(config);
    const ref = await first.send({ target: undefined, payload: card('One'), idempotencyKey: 'run-1', replacing: false });
    await first.update({ message: ref, payload: card('One two'), final: false });
    await first.update({ message: ref, payload: card('One two three'), final: false });
    const second = new FeishuTransport(config);
    await second.update({ message: ref, payload: card('One two three four'), final: false });
    await second.update({ message: ref, payload: card('One two three four. Done.'), final: true });
    const [message] = h.emulator.messages();
    expect(message!.history.filter((c) => c.outcome === 'rejected')).toEqual([]);
    expect(textOf(message!.card, 'answer')).toBe('One two three four. Done.');
    expect(h.emulator.cardEntity(message!.cardId!)!.streaming).toBe(false);
  });
});
