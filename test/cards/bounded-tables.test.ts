/**
 * Bounded render cost for markup-heavy answers (issue 30 item 4): a 10 MB answer made of thousands
 * of small markdown tables, or of code blocks, is cut to what a card and its parts hold (in
 * characters and in lines: the table and markup passes cost per line), with its first table still
 * drawn as a table and a notice counting what was left out; and such a card does not keep another
 * card's final on the same channel from being delivered (fake time). Render time itself is measured
 * by `npm run bench:render`, not here.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardState, type CardView } from '@progresscard/core';
import { boundAnswer, answerCharsNotHeld } from '@progresscard/core/plugin';
import { RENDERERS } from '../support/renderers.js';
import { AT, smallCardBeside, tenMegabytesOf as huge } from './huge-card-support.js';

const TABLE = '| Tool | Runs in |\n|---|---|\n| Vitest | Node |\n\n';
const CODE = '```ts\nconst x = 1; // <b>&amp;</b>\n```\n';
/** A count of several million written out, with or without thousands separators (the notices count what was left out or the whole). */
const MILLIONS = /\b(9,?[6-9]\d\d|10,?000),?\d\d\d\b/;

function finalCard(answer: string): CardView {
  const state = new CardState({ startedAt: AT, locale: 'en' });
  state.apply({ type: 'run.started', title: 'Huge tables' }, AT);
  state.apply({ type: 'run.completed', answer }, AT);
  return state.view(AT);
}

/** The table's head as the user sees it: a header row of a markdown table, an aligned block, a Teams `Table` element or a Slack `table` block. */
function showsTableHead(payload: unknown): boolean {
  const json = JSON.stringify(payload);
  if (/Tool(\s+|\s*\|\s*)Runs in/.test(json)) return true;
  if (/"type":"TableRow","cells":\[\{"type":"TableCell","items":\[\{"type":"TextBlock","text":"Tool"[^\]]*\]\},\{"type":"TableCell","items":\[\{"type":"TextBlock","text":"Runs in"/.test(json)) return true;
  const blocks = (payload as { blocks?: { type: string; rows?: unknown[][] }[] }).blocks ?? [];
  const table = blocks.find((block) => block.type === 'table');
  return table !== undefined && JSON.stringify(table.rows?.[0]).includes('"Tool"') && JSON.stringify(table.rows?.[0]).includes('"Runs in"');
}

describe('a 10 MB answer of tables or code blocks on every channel', () => {
  const tables = finalCard(huge(TABLE));
  const code = finalCard(huge(CODE));

  for (const [channel, make] of Object.entries(RENDERERS)) {
    it(`${channel}: the first table is drawn with its head, the messages stay small, and a notice counts what was left out`, () => {
      const renderer = make();
      const payloads = [renderer.render(tables), ...(renderer.renderContinuations?.(tables) ?? [])];
      // The answer's first message (the card, or on Telegram the first part after "the answer follows below").
      expect(payloads.find((payload) => JSON.stringify(payload).includes('Vitest'))).toSatisfy(showsTableHead);
      expect(Math.max(...payloads.map((payload) => JSON.stringify(payload).length))).toBeLessThan(100_000);
      // A notice on the card or its last part counts the millions of characters (bytes on WeCom) not shown.
      expect(JSON.stringify(payloads)).toMatch(MILLIONS);
    }, 60_000);

    it(`${channel}: a 10 MB answer of code blocks is cut the same way`, () => {
      const renderer = make();
      const payloads = [renderer.render(code), ...(renderer.renderContinuations?.(code) ?? [])];
      expect(JSON.stringify(payloads.slice(0, 2))).toContain('const x = 1;');
      expect(Math.max(...payloads.map((payload) => JSON.stringify(payload).length))).toBeLessThan(100_000);
      expect(JSON.stringify(payloads)).toMatch(MILLIONS);
    }, 60_000);
  }
});

describe('boundAnswer with a line bound', () => {
  const view = finalCard('short');

  it('keeps at most that many lines, counting the rest as not held', () => {
    const answer = 'row\n'.repeat(10_000);
    const bounded = boundAnswer({ ...view, answer }, 1_000_000, { maxLines: 100 });
    expect(bounded.answer).toBe('row\n'.repeat(99) + 'row');
    expect(answerCharsNotHeld(bounded)).toBe(answer.length - bounded.answer.length);
  });

  it('cuts at the character bound when it comes first, and leaves a short answer as it is', () => {
    // 10 characters and the 2 000 of margin hold 19 lines of 101.
    const answer = `${'x'.repeat(100)}\n`.repeat(100);
    expect(boundAnswer({ ...view, answer }, 10, { maxLines: 1_000 }).answer).toBe(answer.slice(0, 19 * 101 - 1));
    expect(boundAnswer({ ...view, answer: 'a\nb\nc' }, 10, { maxLines: 3 }).answer).toBe('a\nb\nc');
    expect(boundAnswer({ ...view, answer: 'a\nb\nc' }, 10, { maxLines: 2 }).answer).toBe('a\nb');
  });

  it('closes a code fence the line bound cuts open', () => {
    const answer = `intro\n\`\`\`ts\n${'x = 1\n'.repeat(100)}`;
    expect(boundAnswer({ ...view, answer }, 1_000_000, { maxLines: 10 }).answer).toMatch(/^intro\n```ts\n(x = 1\n){8}```$/);
  });
});

/**
 * The table-heavy card next to another on Slack's renderer (drawn for every view the core asks for;
 * the in-memory transport records the core's view): the other card's final is delivered within a
 * budget slot of the (fake) time it is delivered alone.
 */
describe('a 10 MB table answer next to another card on Slack', () => {
  beforeEach(() => vi.useFakeTimers({ now: AT }));
  afterEach(() => vi.useRealTimers());

  it("the other card's final is delivered, and the huge card's drawn message shows the table head and the cut notice", async () => {
    const alone = await smallCardBeside(RENDERERS.slack!(), undefined);
    const beside = await smallCardBeside(RENDERERS.slack!(), { answer: huge(TABLE) });
    const drawnHuge = beside.drawn.filter(({ title }) => title === 'Huge').map(({ payload }) => payload);
    expect(beside.smallFinal.ok).toBe(true);
    expect(beside.shownSmall).toMatchObject({ status: 'completed', answer: 'All checks passed.' });
    expect(beside.bigFinal?.ok).toBe(true);
    // At most a slot or two of the channel's budget later: the huge card's own final may go first.
    expect(beside.waitedMs).toBeLessThanOrEqual(alone.waitedMs + 1_000);
    expect(drawnHuge.some(showsTableHead)).toBe(true);
    expect(JSON.stringify(drawnHuge)).toMatch(/the last 9,[6-9]\d\d,\d\d\d characters were left out/);
  }, 60_000);
});
