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

describe('Slack: markdown tables in answers', () => {
  it('F28 a pipe table in the answer shows as an aligned preformatted block, never raw pipes and a |---| row', async () => {
    const c = cases.get('F28')!;
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const text = textsOf(h.emulator.messages()[0]!.blocks).join('\n');
    expect(text).not.toMatch(/\|\s*-{3,}/);
    expect(text).not.toContain('| Vitest |');
    expect(text).toContain(['```', 'Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers', '```'].join('\n'));
    expect(text).toContain('Here is the comparison:');
    expect(text).toContain('Use Vitest for the core.');
  });

  it('leaves pipes that are not a table, and tables inside code fences, as they are', () => {
    expect(tablesAsPreformatted('a | b, no table')).toBe('a | b, no table');
    const fenced = '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```';
    expect(tablesAsPreformatted(fenced)).toBe(fenced);
    expect(tablesAsPreformatted('| 名前 | n |\n|---|---|\n| 東京 | 1 |')).toBe('```\n名前  n\n--  -\n東京  1\n```');
  });
});
