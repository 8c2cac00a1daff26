import { faultCase, loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedCards, harness, textOf, type Harness } from './harness.js';

/** Field cases of round 2 (F12, F14, F15, F16), copied from the shared case list. */
const cases = loadFaultCases(new URL('./fixtures/faults-2.jsonl', import.meta.url));
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string inside a card payload. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Inline code spans of one markdown line, after escaped backticks are taken out; undefined when a backtick run stays open. */
function codeSpans(line: string): string[] | undefined {
  const plain = line.replace(/\\`/g, '');
  const spans: string[] = [];
  const runs = [...plain.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const close = runs.findIndex((run, j) => j > i && run[0].length === runs[i]![0].length);
    if (close < 0) return undefined;
    spans.push(plain.slice(runs[i]!.index! + runs[i]![0].length, runs[close]!.index));
    i = close;
  }
  return spans;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function play(id: string): Promise<{ cards: unknown[]; final: Awaited<ReturnType<Harness['cards']['open']>['finalDelivery']> }> {
  h = await harness({ scale: 10 });
  const card = h.cards.open('feishu');
  await h.play(card, faultCase(cases, id).events);
  const final = await card.finalDelivery;
  await h.cards.idle();
  const message = h.emulator.messages()[0]!;
  return { cards: acceptedCards(message), final };
}

describe('field cases, round 2 (Feishu, through the emulator)', () => {
  it('F12 emoji split into lone UTF-16 surrogates: no card carries half an emoji, the split delta arrives whole', async () => {
    const { cards, final } = await play('F12');
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    for (const card of cards) for (const text of stringsOf(card)) expect(text).not.toMatch(LONE_SURROGATE);
    expect(textOf(cards.at(-1), 'answer')).toContain('Deploy finished 🚀 all green');
  });

  it('F14 answer text before and after a tool call: the two segments stay apart', async () => {
    const { cards } = await play('F14');
    const answer = textOf(cards.at(-1), 'answer')!;
    expect(answer).not.toContain('first.The');
    expect(answer).toMatch(/first\.\s+The timeout is 30 s\./);
  });

  it('F15 approved tool ran: the card stops waiting for confirmation and ends completed', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu');
    const playing = h.play(card, faultCase(cases, 'F15').events);
    await h.until(12_000); // the tool that asked finished at 6000 ms; the model thinks until 15000 ms
    await h.cards.idle();
    const during = h.emulator.messages()[0]!.card;
    expect(JSON.stringify(during)).not.toContain('等待确认');
    expect(during).not.toMatchObject({ header: { template: 'orange' } });
    await playing;
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });

  it('F16 stray backtick and bare < in streamed markdown: inline code balanced in every card, the last paragraph visible', async () => {
    const { cards } = await play('F16');
    expect(cards.length).toBeGreaterThanOrEqual(2); // mid-stream and final
    for (const card of cards) {
      const answer = textOf(card, 'answer') ?? '';
      for (const line of answer.split('\n')) expect(codeSpans(line), line).toBeDefined();
      expect(answer).not.toMatch(/<(?!\/?font)/);
    }
    const last = textOf(cards.at(-1), 'answer')!;
    expect(last).toContain('The last paragraph must stay visible.');
    expect(last).toContain('x &#60; 10');
    expect(codeSpans(last.split('\n').find((line) => line.startsWith('Step 1'))!)).toEqual(['npm ci', 'npm install']);
  });
});
