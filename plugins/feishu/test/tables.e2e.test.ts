import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, textOf, type Harness } from './harness.js';

/** Case F28, copied from the team's shared fault set `faults-4` (its line keeps the reports it comes from). */
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Feishu: markdown tables in answers (Card JSON 2.0 markdown renders GFM tables)', () => {
  it.each(['message', 'cardkit'] as const)('F28 in mode %s: the table reaches the card as a markdown table, accepted', async (mode) => {
    const c = cases.get('F28')!;
    h = await harness({ scale: 10, plugin: { mode } });
    const card = h.cards.open('feishu');
    await h.play(card, c.events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const answer = textOf(h.emulator.messages()[0]!.card, 'answer')!;
    expect(answer).toContain('| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |');
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  });
});
