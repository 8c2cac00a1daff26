import { describe, expect, it } from 'vitest';
import { alignedTableLines, displayWidth, markdownPieces, splitTableRow, tablesAsAligned } from '../src/plugin/index.js';

// Fault case F28 (an agent's markdown table shown as raw pipes; reported in NousResearch/hermes-agent#18918).
const F28_ANSWER = 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.';

describe('GFM table detection', () => {
  it('finds the F28 table between its prose', () => {
    const pieces = markdownPieces(F28_ANSWER);
    expect(pieces.map((piece) => piece.kind)).toEqual(['text', 'table', 'text']);
    expect(pieces[1]).toEqual({
      kind: 'table',
      table: {
        header: ['Tool', 'Best for', 'Runs in'],
        align: [undefined, undefined, undefined],
        rows: [
          ['Vitest', 'Unit tests', 'Node'],
          ['Playwright', 'E2E flows', 'Browsers'],
        ],
      },
    });
  });

  it('reads alignments, tables without outer pipes, short and long rows', () => {
    const [table] = markdownPieces('a | b | c\n:-- | :-: | --:\n1 | 2\n1 | 2 | 3 | 4');
    expect(table).toEqual({ kind: 'table', table: { header: ['a', 'b', 'c'], align: ['left', 'center', 'right'], rows: [['1', '2', ''], ['1', '2', '3']] } });
  });

  it('keeps escaped pipes and pipes in code spans inside their cell', () => {
    expect(splitTableRow('| a \\| b | `x | y` | c |')).toEqual(['a | b', '`x | y`', 'c']);
  });

  it('leaves tables inside code fences, header/delimiter mismatches and lone pipes as prose', () => {
    const fenced = '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```';
    expect(markdownPieces(fenced)).toEqual([{ kind: 'text', text: fenced }]);
    expect(markdownPieces('~~~md\n| a |\n|---|\n~~~').every((piece) => piece.kind === 'text')).toBe(true);
    expect(markdownPieces('| a | b |\n|---|\n| 1 | 2 |').every((piece) => piece.kind === 'text')).toBe(true);
    expect(markdownPieces('run `a | b` then\n- list').every((piece) => piece.kind === 'text')).toBe(true);
    expect(tablesAsAligned('x | y but no delimiter\nnext line')).toBe('x | y but no delimiter\nnext line');
  });

  it('ends a table at a blank line or a line without a pipe', () => {
    const pieces = markdownPieces('| a |\n|---|\n| 1 |\nafter');
    expect(pieces[0]).toMatchObject({ kind: 'table', table: { rows: [['1']] } });
    expect(pieces[1]).toEqual({ kind: 'text', text: 'after' });
  });
});

describe('aligned tables', () => {
  it('draws F28 aligned in a fenced block with no |---| row left', () => {
    const out = tablesAsAligned(F28_ANSWER);
    expect(out).not.toMatch(/\|\s*-{3}/);
    expect(out).toContain(
      ['```', 'Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers', '```'].join('\n'),
    );
    expect(out.startsWith('Here is the comparison:\n\n```')).toBe(true);
    expect(out.endsWith('```\n\nUse Vitest for the core.')).toBe(true);
  });

  it('counts CJK characters as two columns so columns line up', () => {
    expect(displayWidth('工具')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    const lines = alignedTableLines({ header: ['名称', 'x'], align: [], rows: [['Vitest', 'y']] });
    expect(lines).toEqual(['名称    x', '------  -', 'Vitest  y']);
  });

  it('pads by alignment', () => {
    const lines = alignedTableLines({ header: ['left', 'mid', 'right'], align: ['left', 'center', 'right'], rows: [['a', 'b', 'c']] });
    expect(lines[2]).toBe('a      b       c');
  });

  it('caps rows with a visible notice and cuts long cells', () => {
    const rows = Array.from({ length: 12 }, (_, i) => [`row ${i}`, 'x'.repeat(100)]);
    const lines = alignedTableLines({ header: ['n', 'text'], align: [], rows }, { maxRows: 10, maxCellWidth: 20 });
    expect(lines).toHaveLength(2 + 10 + 1);
    expect(lines.at(-1)).toBe('… (2 more table rows not shown)');
    expect(Math.max(...lines.slice(0, -1).map(displayWidth))).toBeLessThanOrEqual(6 + 2 + 20);
    expect(lines[2]).toContain('…');
    expect(alignedTableLines({ header: ['n'], align: [], rows: [['1'], ['2']] }, { maxRows: 1, locale: 'zh-CN' }).at(-1)).toBe('…（表格另有 1 行未显示）');
  });

  it('leaves markdown without tables unchanged', () => {
    const text = 'no tables here\n```\n| a |\n|---|\n```';
    expect(tablesAsAligned(text)).toBe(text);
  });
});
