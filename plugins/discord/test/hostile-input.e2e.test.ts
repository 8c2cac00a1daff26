import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

/**
 * Hostile input on a Discord card: push() must never throw, the card must end completed with the
 * answer, and the API must refuse nothing (lengths, markup, lone surrogates). Discord breaks `<` markup with a zero-width space.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const circular: Record<string, unknown> = { a: 1 };
circular.self = circular;
const HOSTILE: Record<string, unknown>[] = [
  { type: 'run.started', title: 'x\ud83d <b>bold</b> & <script> \u0000 ' + 'T'.repeat(5000) },
  null as never,
  { type: 'nope' },
  { type: 'answer.delta', text: 42 },
  { type: 'tool.started', id: 't1', name: '<i>sh</i>\ud83d', args: { command: 'echo "<a href=x>" & ls `x', big: 10n } },
  { type: 'tool.started', id: 't2', name: 'x'.repeat(10_000), args: circular },
  { type: 'thinking.delta', text: '<tg-spoiler>**\ud83d' },
  { type: 'tool.finished', id: 't1', ok: true, summary: '</b></i></code><pre>' + '\ud83d'.repeat(3) },
  { type: 'tool.finished', id: 't2', ok: false, error: '&amp;&lt;' + 'e'.repeat(20_000) },
  { type: 'answer.delta', text: 'A '.repeat(3000) + '```\nunclosed <pre> & \ud83d' },
  { type: 'answer.delta', text: '\n| a | b |\n|---|---|\n| <x> | & |\n' + '😀'.repeat(2500) },
  { type: 'run.completed', answer: 'FINAL <answer> & done ' + '\ud83d' + 'z'.repeat(6000) },
];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('Discord: hostile input', () => {
  it('push never throws, nothing is refused, the card ends completed with the answer', async () => {
    h = await harness();
    const card = h.cards.open('discord');
    for (const [i, event] of HOSTILE.entries()) {
      expect(() => card.push(event as never), `event ${i}`).not.toThrow();
    }
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [message] = h.emulator.messages();
    // Every string of the message (content, embed titles, descriptions, fields, footers).
    const shown = strings([message!.content, message!.embeds]).join('\n');
    expect(shown).toMatch(/FINAL <\u200b?answer> & done/);
    expect(shown).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  }, 60_000);
});
