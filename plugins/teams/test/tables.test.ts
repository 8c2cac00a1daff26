import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createTeamsRenderer } from '../src/render/renderer.js';
import type { AdaptiveElement } from '../src/render/payload.js';

// Fault case F28 (an agent's markdown table shown as raw pipes; reported in NousResearch/hermes-agent#18918).
const F28_ANSWER = 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.';
const F28 = [{ type: 'run.started', title: 'Compare the test runners', locale: 'en' }, { type: 'answer.delta', text: F28_ANSWER }, { type: 'run.completed' }] as const;

const cellTexts = (element: AdaptiveElement) => (element.type === 'Table' ? element.rows.map((row) => row.cells.map((cell) => cell.items.map((item) => item.text).join(''))) : []);

describe('Teams: markdown tables', () => {
  it('draws the F28 table as an Adaptive Card Table between its prose, no raw |---| row', () => {
    const { card } = createTeamsRenderer({ locale: 'en' }).render(viewAfterEvents([...F28], { locale: 'en' }));
    const body = card?.body ?? [];
    const at = body.findIndex((element) => element.type === 'Table');
    expect(at).toBeGreaterThan(0);
    expect(body[at - 1]).toMatchObject({ type: 'TextBlock', text: 'Here is the comparison:' });
    expect(body[at + 1]).toMatchObject({ type: 'TextBlock', text: 'Use Vitest for the core.' });
    expect(cellTexts(body[at]!)).toEqual([
      ['Tool', 'Best for', 'Runs in'],
      ['Vitest', 'Unit tests', 'Node'],
      ['Playwright', 'E2E flows', 'Browsers'],
    ]);
    expect(JSON.stringify(card)).not.toMatch(/\|\s*-{3}/);
  });

  it('caps a long table with a visible notice and keeps cell alignment', () => {
    const rows = Array.from({ length: 45 }, (_, i) => `| ${i} | x |`).join('\n');
    const view = viewAfterEvents([{ type: 'run.started', title: 't' }, { type: 'answer.delta', text: `| n | v |\n|--:|:-:|\n${rows}` }], { locale: 'en' });
    const body = createTeamsRenderer({ locale: 'en' }).render(view).card?.body ?? [];
    const table = body.find((element) => element.type === 'Table');
    expect(table && cellTexts(table)).toHaveLength(41);
    expect(table).toMatchObject({ columns: [{ horizontalCellContentAlignment: 'Right' }, { horizontalCellContentAlignment: 'Center' }] });
    expect(body.some((element) => element.type === 'TextBlock' && element.text === '… (5 more table rows not shown)')).toBe(true);
  });

  it('the plain-text fallback shows the table as an aligned code block', () => {
    const { text } = createTeamsRenderer({ locale: 'en' }).renderFallback(viewAfterEvents([...F28], { locale: 'en' }));
    expect(text).toContain('Vitest      Unit tests  Node\nPlaywright  E2E flows   Browsers');
    expect(text).not.toMatch(/\|\s*-{3}/);
  });
});
