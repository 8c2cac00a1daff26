import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTables, escapeCardMarkdown, limitTables, splitBlocks, truncateMarkdown } from '../../src/render/markdown/index.js';

/** A live mention or card tag as Feishu's markdown would parse it. */
const LIVE_TAG = /<\/?(at|person|font|a|link|text_tag|raw|number_tag|local_datetime|br|hr)[\s>/]/i;
const openFences = (md: string) => splitBlocks(md).filter((b) => b.kind === 'fence' && !b.closed).length;

describe('escapeCardMarkdown: agent text cannot create card tags', () => {
  it('turns prose tags into entities that render as text', () => {
    const out = escapeCardMarkdown('hi <at id=all></at> and <at user_id="ou_1">Bob</at>, <font color=red>x</font> <a href="x">y</a>');
    expect(out).not.toMatch(LIVE_TAG);
    expect(out).toBe('hi &#60;at id=all>&#60;/at> and &#60;at user_id="ou_1">Bob&#60;/at>, &#60;font color=red>x&#60;/font> &#60;a href="x">y&#60;/a>');
  });

  it('keeps code readable: only card tags inside code get a zero-width break', () => {
    const out = escapeCardMarkdown('use `<at id=all>` or `Array<string>`\n```html\n<div><at id=all></at></div>\n```');
    expect(out).not.toMatch(LIVE_TAG);
    expect(out).toContain('`Array<string>`');
    expect(out).toContain('<div>');
    expect(out.replace(/\u200b/g, '')).toBe('use `<at id=all>` or `Array<string>`\n```html\n<div><at id=all></at></div>\n```');
  });

  it('turns image URLs (which would need an img_key) into links', () => {
    expect(escapeCardMarkdown('see ![chart](https://x.test/a.png) and ![local](./a.png)')).toBe('see [chart](https://x.test/a.png) and local');
  });

  it('never leaves a live tag, whatever the input (property)', () => {
    const piece = fc.constantFrom('<at id=all>', '</at>', '<font color=red>', '`', '``', '```\n', '\n', 'text ', '<', 'at ', '<a href=x>', '<person id=1>', '~~~\n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const out = escapeCardMarkdown(parts.join(''));
        expect(out).not.toMatch(LIVE_TAG);
      }),
    );
  });
});

describe('escapeCardMarkdown: many code spans', () => {
  it('keeps thousands of tiny code spans as written and still escapes the one with a tag (issue 30)', () => {
    const spans = '`a`b'.repeat(20_000);
    expect(escapeCardMarkdown(spans)).toBe(spans);
    const out = escapeCardMarkdown(`${spans} \`<at id=all>\` <at id=all>`);
    expect(out).not.toMatch(LIVE_TAG);
    expect(out.startsWith(spans)).toBe(true);
  });
});

describe('limitTables', () => {
  const table = (n: number) => `| h${n} | x |\n| --- | --- |\n| a | b |`;
  it('keeps the first N tables and turns later ones into code blocks with the same rows', () => {
    const md = [1, 2, 3, 4, 5].map(table).join('\n\ntext\n\n');
    const out = limitTables(md, 3);
    expect(out).toMatchObject({ kept: 3, converted: 2 });
    expect(countTables(out.text)).toBe(3);
    expect(out.text).toContain('```text\n| h4 | x |\n| --- | --- |\n| a | b |\n```');
  });

  it('does not count tables inside code fences, nor a setext heading', () => {
    expect(countTables('```\n| a | b |\n| - | - |\n```\nTitle\n---')).toBe(0);
    expect(countTables('| a |\n| :-: |')).toBe(1);
  });
});

describe('truncateMarkdown', () => {
  it('closes a code fence left open at the cut and says where to reopen it', () => {
    const md = `intro\n\`\`\`ts\n${'const x = 1;\n'.repeat(100)}\`\`\`\nafter`;
    const cut = truncateMarkdown(md, 200);
    expect(cut.truncated).toBe(true);
    expect(openFences(cut.text)).toBe(0);
    expect(cut.text.endsWith('\n```')).toBe(true);
    expect(cut.reopen).toBe('```ts');
    expect(md.slice(0, cut.consumed)).toBe(cut.text.slice(0, cut.consumed));
  });

  it('does not split a surrogate pair or an entity', () => {
    expect(truncateMarkdown('ab😀cd', 3).text).toBe('ab');
    expect(truncateMarkdown('x &#60;at', 5).text).toBe('x');
  });

  it('cuts a list nested 2 000 levels deep at a line end: every kept item keeps its indent and text, no indent dangles at the cut (issue 30)', () => {
    const lines = Array.from({ length: 2_000 }, (_, depth) => `${'  '.repeat(depth)}- item ${depth}`);
    const md = lines.join('\n');
    const cut = truncateMarkdown(md, 100_000);
    expect(cut.truncated).toBe(true);
    const kept = cut.text.split('\n');
    expect(kept).toEqual(lines.slice(0, kept.length));
    expect(kept.length).toBeGreaterThan(250);
    // Cut inside the next line's indent: the spaces are dropped (the line end stays).
    const intoIndent = truncateMarkdown(`- a\n${' '.repeat(4_000)}- b`, 2_000);
    expect(intoIndent.text).toBe('- a\n');
  });

  it('leaves short text alone', () => {
    expect(truncateMarkdown('short', 10)).toEqual({ text: 'short', consumed: 5, truncated: false });
  });

  it('never leaves an open fence and never grows past the limit plus a closing fence (property)', () => {
    const piece = fc.constantFrom('```js\n', '```\n', '~~~\n', 'code line\n', 'text ', '\n', '`x`', '😀', '&#60;');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(300), (parts, max) => {
        const md = parts.join('');
        const cut = truncateMarkdown(md, max);
        if (cut.truncated || openFences(md) === 0) expect(openFences(cut.text)).toBe(0);
        expect(cut.consumed).toBeLessThanOrEqual(Math.max(max, md.length));
        if (cut.truncated) expect(cut.text.length).toBeLessThanOrEqual(max + 5);
      }),
    );
  });
});
