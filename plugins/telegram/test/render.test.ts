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
