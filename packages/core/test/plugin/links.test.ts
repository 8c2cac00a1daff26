import { describe, expect, it } from 'vitest';
import { breakLinkSyntax, isAllowedLinkDestination, neutraliseLinks } from '../../src/plugin/index.js';

const ZWSP = '\u200b';

describe('links in agent text', () => {
  it('a link whose scheme is not http, https or mailto becomes its label', () => {
    expect(neutraliseLinks('[查看详情](dtmd://dingtalkclient/sendMessage?content=hi) now')).toBe('查看详情 now');
    expect(neutraliseLinks('Click [here](javascript:alert(document.cookie)).')).toBe('Click here.');
    expect(neutraliseLinks('![chart](data:image/svg+xml;base64,PHN2Zz4=)')).toBe('chart');
    expect(neutraliseLinks('[x](lark://applink.feishu.cn/client/chat/open)')).toBe('x');
  });

  it('http, https and mailto links stay as written', () => {
    const text = '[docs](https://open.feishu.cn/document) [old](http://example.com/a_(b)) [mail](mailto:ops@example.com "Ops")';
    expect(neutraliseLinks(text)).toBe(text);
  });

  it('schemes hidden by entities, escapes, case, tabs or angle brackets are still seen', () => {
    for (const destination of ['java&#115;cript:alert(1)', 'JaVaScRiPt:alert(1)', 'javascript\\:alert(1)', '<java\tscript:alert(1)>', '&#x64;tmd://x', ' vbscript&colon;x']) {
      expect(isAllowedLinkDestination(destination), destination).toBe(false);
    }
    expect(neutraliseLinks('[x](java&#115;cript:alert(1))')).toBe('x');
  });

  it('a destination without a scheme is not a link on a card', () => {
    expect(isAllowedLinkDestination('/relative/path')).toBe(false);
    expect(isAllowedLinkDestination('//evil.example/x')).toBe(false);
    expect(neutraliseLinks('[notes](notes.md)')).toBe('notes');
  });

  it('a reference definition with a forbidden destination defines nothing', () => {
    expect(neutraliseLinks('[open][r]\n\n[r]: javascript:alert(1)')).toBe(`[open][r]\n\n\\[r]: javascript:${ZWSP}alert(1)`);
    expect(neutraliseLinks('[r]: https://ok.example')).toBe('[r]: https://ok.example');
  });

  it('a bare action URL gets an invisible break after its colon; prose around it reads the same', () => {
    expect(neutraliseLinks('open dtmd://dingtalkclient/sendMessage?content=x or https://ok.example')).toBe(`open dtmd:${ZWSP}//dingtalkclient/sendMessage?content=x or https://ok.example`);
    expect(neutraliseLinks('Note: data is ready at 10:30')).toBe('Note: data is ready at 10:30');
  });

  it('removing a link cannot join text into a new forbidden link', () => {
    expect(neutraliseLinks('[a]](javascript:x)(javascript:y)')).toBe('a');
    expect(neutraliseLinks('[[in](javascript:a)](dtmd://b)')).toBe('in');
  });

  it('in code only the link syntax breaks, invisibly, and ordinary URLs stay copyable', () => {
    expect(breakLinkSyntax('[x](javascript:alert(1))')).toBe(`[x]${ZWSP}(javascript:${ZWSP}alert(1))`);
    expect(breakLinkSyntax('redis-cli -u redis://localhost:6379')).toBe('redis-cli -u redis://localhost:6379');
    expect(breakLinkSyntax('[ok](https://example.com)')).toBe('[ok](https://example.com)');
  });

  it('thousands of forbidden links in one text are all neutralised', () => {
    const text = '[x](javascript:1)'.repeat(5000);
    const out = neutraliseLinks(text);
    expect(out).not.toMatch(/\]\(javascript/);
  });

  // Each unclosed destination runs to the end of the text: reading it whole at every `](` was
  // quadratic (100 000 repeats took minutes). The result must still be right.
  it('100 000 unclosed links: allowed ones stay as written, forbidden ones are neutralised', () => {
    const allowed = '[a](http://x'.repeat(100_000);
    expect(neutraliseLinks(allowed)).toBe(allowed);
    expect(breakLinkSyntax(allowed)).toBe(allowed);
    expect(neutraliseLinks(`${allowed}[b](javascript:y)`)).toBe(`${allowed}b`);
    // No `)` closes them: none is a link; each stays as written with its syntax broken.
    expect(neutraliseLinks('[a](javascript:x'.repeat(100_000))).toBe(`[a]${ZWSP}(javascript:${ZWSP}x`.repeat(100_000));
    expect(breakLinkSyntax('[a](javascript:x'.repeat(100_000))).toBe(`[a]${ZWSP}(javascript:${ZWSP}x`.repeat(100_000));
  });

  it('an unclosed link with a forbidden scheme keeps the prose after it (no white space in Chinese text)', () => {
    const text = '请看[这里](lark://open/x然后继续说明很多内容，这一段没有空格。\n第二段';
    const out = neutraliseLinks(text);
    expect(out.replaceAll(ZWSP, '')).toBe(text);
    expect(out).toContain(`]${ZWSP}(lark:${ZWSP}//`);
  });

  it('a scheme hidden behind more invisible characters than a scheme could need is not allowed', () => {
    expect(isAllowedLinkDestination(`h${'\u200b'.repeat(100)}ttps://example.com`)).toBe(true);
    expect(neutraliseLinks(`[a](h${'\u200b'.repeat(100)}ttps://example.com)`)).toBe('a');
    expect(neutraliseLinks(`[a](h${'\u200b'.repeat(10)}ttps://example.com)`)).toMatch(/^\[a\]\(h/);
  });
});
