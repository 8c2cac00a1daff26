import { describe, expect, it } from 'vitest';
import { renderDingTalkCard, renderFeishuCard, renderMarkdown } from '../src/index.js';

describe('preview rendering', () => {
  it('escapes agent HTML but keeps the platforms\' colour tags', () => {
    const html = renderMarkdown("<script>alert(1)</script>\n\n<font color='grey'>ok</font> <img src=x onerror=alert(1)>");
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<span class="c-grey">ok</span>');
  });

  it('drops javascript: links and renders tables and code', () => {
    const html = renderMarkdown('[x](javascript:alert(1)) [y](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst a = "<b>";\n```');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('<table>');
    expect(html).toContain('&quot;&lt;b&gt;&quot;');
  });

  it('renders a Feishu 2.0 card: header colour, markdown, panel, hr, notation text', () => {
    const html = renderFeishuCard({
      schema: '2.0',
      header: { title: { tag: 'plain_text', content: 'Run <1>' }, subtitle: { tag: 'plain_text', content: '运行中' }, template: 'blue' },
      body: {
        elements: [
          { tag: 'collapsible_panel', expanded: false, header: { title: { tag: 'plain_text', content: 'Tools' } }, elements: [{ tag: 'markdown', content: '- shell: `npm test`（执行中 · 12 秒）' }] },
          { tag: 'hr' },
          { tag: 'markdown', content: 'footer', text_size: 'notation' },
          { tag: 'div', text: { tag: 'plain_text', content: '<b>plain</b>' } },
          { tag: 'mystery_widget' },
        ],
      },
    });
    expect(html).toContain('hdr-blue');
    expect(html).toContain('Run &lt;1&gt;');
    expect(html).toContain('<details class="el fold"><summary>');
    expect(html).toContain('执行中 · 12 秒');
    expect(html).toContain('size-notation');
    expect(html).toContain('&lt;b&gt;plain&lt;/b&gt;');
    expect(html).toContain('[mystery_widget]');
  });

  it('renders DingTalk card data by its variables and AI-card state', () => {
    const html = renderDingTalkCard(
      { msgTitle: 'Fix it', msgContent: '<font colorTokenV2=common_green1_color>✅ **已完成**</font>\n\n- a', flowStatus: '3', extra: 'v' },
      'finished',
    );
    expect(html).toContain('hdr-green');
    expect(html).toContain('Fix it');
    expect(html).toContain('<span class="c-common_green1_color">✅ <strong>已完成</strong></span>');
    expect(html).toContain('<dt>extra</dt>');
    expect(html).not.toContain('flowStatus');
  });
});
