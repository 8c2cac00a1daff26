import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesAsPreformatted } from '../src/render/tables.js';
import { harness, type Harness } from './harness.js';

/** Case F28, copied from the team's shared fault set `faults-4` (its line keeps the reports it comes from). */
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every mrkdwn text of a message's blocks. */
function textsOf(blocks: readonly unknown[] | undefined): string[] {
  return (blocks ?? []).flatMap((block) => {
    const b = block as { text?: { text?: string }; elements?: { text?: string }[] };
    return [b.text?.text, ...(b.elements ?? []).map((e) => e.text)].filter((t): t is string => typeof t === 'string');
  });
}

/** A table cell's text (`rich_text` with one text element, or `raw_text`). */
function cellText(cell: unknown): string {
  const c = cell as { text?: string; elements?: { elements?: { text?: string }[] }[] };
  return c.text ?? (c.elements ?? []).flatMap((e) => (e.elements ?? []).map((t) => t.text ?? '')).join('');
}

describe('Slack: markdown tables in answers', () => {
  it('F28 a pipe table in the answer shows as a Slack table block in its place, never raw pipes and a |---| row', async () => {
    const c = cases.get('F28')!;
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const blocks = h.emulator.messages()[0]!.blocks as { type: string; block_id?: string; rows?: unknown[][] }[];
    const text = textsOf(blocks).join('\n');
    expect(text).not.toMatch(/\|\s*-{3,}/);
    expect(text).not.toContain('| Vitest |');
    const tables = blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows!.map((row) => row.map(cellText))).toEqual([['Tool', 'Best for', 'Runs in'], ['Vitest', 'Unit tests', 'Node'], ['Playwright', 'E2E flows', 'Browsers']]);
    // In its place: the text before it above, the text after it below.
    const at = (needle: string) => blocks.findIndex((b) => textsOf([b]).some((t) => t.includes(needle)));
    const tableAt = blocks.indexOf(tables[0]!);
    expect(at('Here is the comparison:')).toBeLessThan(tableAt);
    expect(at('Use Vitest for the core.')).toBeGreaterThan(tableAt);
  });

  it('a second table, and a table past the block limits (21 columns), are aligned preformatted blocks: Slack takes one table a message', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack');
    const wide = `| ${Array.from({ length: 21 }, (_, i) => `c${i}`).join(' | ')} |\n|${'---|'.repeat(21)}\n| ${Array.from({ length: 21 }, (_, i) => `${i}`).join(' | ')} |`;
    const answer = `${wide}\n\nFirst:\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\nSecond:\n\n| x | y |\n|---|---|\n| 3 | 4 |\n`;
    await h.play(card, [{ at: 0, type: 'run.started', title: 'Tables' }, { at: 100, type: 'answer.delta', text: answer }, { at: 2_000, type: 'run.completed' }]);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const blocks = h.emulator.messages()[0]!.blocks as { type: string; rows?: unknown[][]; column_settings?: unknown[] }[];
    const tables = blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows!.map((row) => row.map(cellText))).toEqual([['a', 'b'], ['1', '2']]);
    expect(tables[0]!.column_settings).toEqual([{}, { align: 'right' }]);
    const text = textsOf(blocks).join('\n');
    expect(text).toContain(['```', 'x  y', '-  -', '3  4', '```'].join('\n'));
    expect(text).toContain('c0  c1');
    expect(text).not.toMatch(/\|\s*-{3,}/);
  });

  it('leaves pipes that are not a table, and tables inside code fences, as they are', () => {
    expect(tablesAsPreformatted('a | b, no table')).toBe('a | b, no table');
    const fenced = '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```';
    expect(tablesAsPreformatted(fenced)).toBe(fenced);
    // CJK characters take two columns in a monospace font: the rule under 名前 is four wide.
    expect(tablesAsPreformatted('| 名前 | n |\n|---|---|\n| 東京 | 1 |')).toBe('```\n名前  n\n----  -\n東京  1\n```');
  });
});
