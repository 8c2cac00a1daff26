import { viewAfterEvents } from '@progresscard/core/testing';
import { telegramVisibleText } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import { createTelegramRenderer } from '../src/render/renderer.js';
import { markdownToTelegramHtml, splitMarkdown } from '../src/render/html.js';

describe('Telegram HTML', () => {
  it('escapes agent text so it is shown, never parsed: tags, entities, links with other schemes', () => {
    const html = markdownToTelegramHtml('a < b && <b>not bold</b> [x](javascript:alert(1)) [ok](https://example.com/?a=1&b=2) **bold**');
    const parsed = telegramVisibleText(html);
    expect(parsed.ok).toBe(true);
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<a href="https://example.com/?a=1&amp;b=2">ok</a>');
    expect(html).toContain('<b>bold</b>');
  });

  it('unclosed [ and links without a closing ) stay visible text; a link between them still works (issue 30)', () => {
    const brackets = '['.repeat(3_000);
    const parsed = telegramVisibleText(markdownToTelegramHtml(`${brackets} see [docs](https://example.com/a) ${'[a](https://x.example/'.repeat(50)}`));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.text.startsWith(brackets)).toBe(true);
    expect(markdownToTelegramHtml('see [docs](https://example.com/a)')).toBe('see <a href="https://example.com/a">docs</a>');
    expect(parsed.text).toContain(`see docs ${'[a](https://x.example/'.repeat(50)}`);
    // A link destination holding a bracket (written unencoded) stays text rather than becoming a half-link.
    const withBracket = markdownToTelegramHtml('[a](https://x.example/[b])');
    expect(withBracket).not.toContain('<a ');
    expect(telegramVisibleText(withBracket)).toEqual({ ok: true, text: '[a](https://x.example/[b])' });
  });

  it('code fences become <pre>, and a fence cut by a split is closed and opened again', () => {
    const markdown = `intro\n\`\`\`ts\n${Array.from({ length: 40 }, (_, i) => `const a${i} = ${i} < 2;`).join('\n')}\n\`\`\`\ndone`;
    const { pieces } = splitMarkdown(markdown, 300, 20);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect((piece.match(/^```/gm) ?? []).length % 2).toBe(0);
      const parsed = telegramVisibleText(markdownToTelegramHtml(piece));
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.text.length).toBeLessThanOrEqual(300);
    }
    expect(pieces.join('\n')).toContain('const a39 = 39 < 2;');
  });

  it('the card shows status, tool lines with their elapsed time and the footer; its HTML always parses', () => {
    const view = viewAfterEvents([
      { type: 'run.started', title: 'Fix <parser>' },
      { type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test && echo <done>"}', at: 0 },
    ], { lookAtMs: 42_000, locale: 'en' });
    const { text } = createTelegramRenderer({ locale: 'en' }).render(view);
    const parsed = telegramVisibleText(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.text.split('\n')[0]).toMatch(/^⏳ Running · Fix <parser>/);
    expect(parsed.text).toMatch(/shell.*npm test && echo <done>.*running · 42s/);
  });
});
