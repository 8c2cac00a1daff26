import { checkFeishuCardContent } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import type { FeishuCard, FeishuElement } from '../../src/render/payload.js';
import { renderCard, type CardRenderOptions } from '../../src/render/card.js';
import { renderFallbackCard } from '../../src/render/fallback.js';
import { ELEMENT_ID_PATTERN } from '../../src/render/guards.js';
import { viewOf } from '../views.js';

const OPTIONS: CardRenderOptions = { footerStyle: 'compact', overflow: 'follow-up', timeZone: 'UTC' };

type Script = Record<string, unknown>[];
const base = (locale: 'zh-CN' | 'en'): Script => [
  { at: 0, type: 'run.started', title: 'Refactor parser', locale, model: 'gpt-x' },
  { at: 10, type: 'round.started', round: 3 },
  { at: 20, type: 'thinking.delta', text: 'Check the failing test first.' },
  { at: 30, type: 'tool.started', callId: 'c1', name: 'read_file', args: '{"path":"src/parse.ts"}' },
  { at: 900, type: 'tool.finished', callId: 'c1', summary: '120 lines' },
  { at: 1000, type: 'tool.started', callId: 'c2', name: 'shell', args: '{"command":"npm test"}' },
  { at: 1100, type: 'usage', inputTokens: 12800, outputTokens: 1100, contextTokens: 34000, contextWindow: 100000 },
];
const SCRIPTS: Record<string, (locale: 'zh-CN' | 'en') => Script> = {
  running: (l) => base(l),
  waiting: (l) => [...base(l), { at: 2000, type: 'interaction.requested', prompt: 'Allow `rm -rf build`?' }],
  completed: (l) => [...base(l), { at: 4000, type: 'tool.finished', callId: 'c2', summary: '212 passed' }, { at: 4100, type: 'answer.delta', text: 'All tests pass.\n\n| file | lines |\n| --- | --- |\n| parse.ts | 120 |' }, { at: 4400, type: 'run.completed' }],
  failed: (l) => [...base(l), { at: 4000, type: 'run.failed', error: 'model overloaded (529)' }],
  cancelled: (l) => [...base(l), { at: 4000, type: 'run.cancelled', reason: 'stopped by the user' }],
};
const render = (status: string, locale: 'zh-CN' | 'en') => renderCard(viewOf(SCRIPTS[status]!(locale), 5000), OPTIONS);

function ids(card: FeishuCard): string[] {
  const out: string[] = [];
  const walk = (els: readonly FeishuElement[]) =>
    els.forEach((e) => {
      if (e.element_id) out.push(e.element_id);
      if (Array.isArray(e.elements)) walk(e.elements as FeishuElement[]);
    });
  walk(card.body.elements);
  return out;
}
const element = (card: FeishuCard, id: string): FeishuElement | undefined => {
  let found: FeishuElement | undefined;
  const walk = (els: readonly FeishuElement[]) =>
    els.forEach((e) => {
      if (e.element_id === id) found = e;
      if (Array.isArray(e.elements)) walk(e.elements as FeishuElement[]);
    });
  walk(card.body.elements);
  return found;
};

describe('renderCard: one snapshot per status and locale', () => {
  for (const locale of ['zh-CN', 'en'] as const) {
    for (const status of Object.keys(SCRIPTS)) {
      it(`${status} (${locale})`, () => {
        const card = render(status, locale);
        expect(card).toMatchSnapshot();
        expect(checkFeishuCardContent(JSON.stringify(card))).toMatchObject({ ok: true });
        expect(ids(card).every((id) => ELEMENT_ID_PATTERN.test(id))).toBe(true);
        expect(new Set(ids(card)).size).toBe(ids(card).length);
      });
    }
  }
});

describe('renderCard: what a user sees', () => {
  it('status line and header colour follow the status', () => {
    const header = (status: string, locale: 'zh-CN' | 'en') => {
      const h = render(status, locale).header!;
      return [h.subtitle!.content, h.template];
    };
    expect(header('running', 'zh-CN')).toEqual(['运行中 · 第 3 轮', 'blue']);
    expect(header('running', 'en')).toEqual(['Running · round 3', 'blue']);
    expect(header('waiting', 'zh-CN')).toEqual(['等待输入', 'orange']);
    expect(header('completed', 'zh-CN')).toEqual(['已完成', 'green']);
    expect(header('completed', 'en')).toEqual(['Completed', 'green']);
    expect(header('failed', 'zh-CN')).toEqual(['失败', 'red']);
    expect(header('cancelled', 'zh-CN')).toEqual(['已取消', 'grey']);
    expect(render('completed', 'zh-CN').config).toMatchObject({ update_multi: true, summary: { content: '【已完成】Refactor parser' } });
    expect(render('running', 'en').header!.title.content).toBe('Refactor parser');
  });

  it('shows thinking in an open panel while nothing is answered and folds it once an answer exists', () => {
    const running = render('running', 'zh-CN');
    expect(running.body.elements[0]).toMatchObject({ tag: 'collapsible_panel', element_id: 'thinking_panel', expanded: true });
    expect(element(running, 'thinking')!.content).toBe('Check the failing test first.');
    const answered = renderCard(viewOf([...base('zh-CN'), { at: 1200, type: 'answer.delta', text: 'Found it.' }], 2000), OPTIONS);
    expect(answered.body.elements[0]).toMatchObject({ tag: 'collapsible_panel', element_id: 'thinking_panel', expanded: false });
    expect(element(answered, 'thinking')!.content).toBe('Check the failing test first.');
    expect(element(answered, 'answer')!.content).toBe('Found it.');
  });

  it('shows the core\'s tool lines with live durations, folding all but the latest when there are more than 3', () => {
    const running = render('running', 'zh-CN');
    expect(element(running, 'tools')!.content).toBe('- ✅ read_file: `src/parse.ts`（完成 · 120 lines）\n- ⏳ shell: `npm test`（执行中 · 4 秒）');
    const many = [
      { at: 0, type: 'run.started', locale: 'en' },
      ...[1, 2, 3, 4, 5].flatMap((i) => [
        { at: i * 100, type: 'tool.started', callId: `t${i}`, name: 'read_file', args: { path: `f${i}.ts` } },
        { at: i * 100 + 50, type: 'tool.finished', callId: `t${i}`, summary: `${i} lines` },
      ]),
    ];
    const card = renderCard(viewOf(many, 1000), OPTIONS);
    expect(element(card, 'tools_title')!.content).toBe('**Tool calls** · 5');
    expect(element(card, 'tools_panel')).toMatchObject({ tag: 'collapsible_panel', expanded: false, header: { title: { content: '4 earlier tool calls' } } });
    expect((element(card, 'tools_older')!.content as string).split('\n')).toHaveLength(4);
    expect(element(card, 'tools')!.content).toBe('- ✅ read_file: `f5.ts` (done · 5 lines)');
  });

  it('puts the footer in small grey text on finished cards only (2.0 has no note)', () => {
    const done = render('completed', 'en');
    expect(element(done, 'footer')).toMatchObject({ tag: 'markdown', text_size: 'notation' });
    expect(element(done, 'footer')!.content).toBe("<font color='grey'>4s · gpt-x · in 12.8k / out 1.1k · ctx 34% · 00:00</font>");
    expect(element(render('running', 'en'), 'footer')).toBeUndefined();
    const debug = renderCard(viewOf(SCRIPTS.completed!('en'), 5000), { ...OPTIONS, footerStyle: 'debug' });
    expect(element(debug, 'footer')!.content).toContain('tools 2');
  });

  it('shows the waiting prompt, the error of a failed run and the reason of a cancelled one', () => {
    expect(element(render('waiting', 'en'), 'waiting')!.content).toBe('**⏸ Waiting for**: Allow `rm -rf build`?');
    expect(element(render('failed', 'zh-CN'), 'error')!.content).toBe('**❌ 失败原因**：model overloaded (529)');
    expect(element(render('cancelled', 'en'), 'error')!.content).toBe('**⏹ Cancelled**: stopped by the user');
  });

  it('config locale overrides the run\'s locale', () => {
    const card = renderCard(viewOf(SCRIPTS.completed!('zh-CN'), 5000), { ...OPTIONS, locale: 'en' });
    expect(card.header!.subtitle!.content).toBe('Completed');
  });

  it('is pure: equal views give equal payloads', () => {
    const view = viewOf(SCRIPTS.completed!('zh-CN'), 5000);
    expect(JSON.stringify(renderCard(view, OPTIONS))).toBe(JSON.stringify(renderCard(structuredClone(view), OPTIONS)));
  });
});

function markdownTexts(card: FeishuCard): string[] {
  const out: string[] = [];
  const walk = (els: readonly FeishuElement[]) =>
    els.forEach((e) => {
      if (e.tag === 'markdown') out.push(e.content as string);
      if (Array.isArray(e.elements)) walk(e.elements as FeishuElement[]);
    });
  walk(card.body.elements);
  return out;
}

describe('mention escaping', () => {
  it('no agent or tool text reaches the platform as a live <at> mention or card tag', () => {
    const evil = '<at id=all></at> <at user_id="ou_boss">boss</at> <font color=red>x</font>';
    const script = [
      { at: 0, type: 'run.started', title: evil, model: '<at id=all>' },
      { at: 1, type: 'thinking.delta', text: evil },
      { at: 2, type: 'tool.started', callId: 'a', name: 'shell', args: { command: `echo "${evil}"` } },
      { at: 3, type: 'tool.finished', callId: 'a', summary: evil },
      { at: 4, type: 'answer.delta', text: `${evil}\n\`${evil}\`\n\`\`\`\n${evil}\n\`\`\`` },
      { at: 5, type: 'run.failed', error: evil },
    ];
    for (const payload of [renderCard(viewOf(script, 10), OPTIONS)]) {
      const checked = checkFeishuCardContent(JSON.stringify(payload));
      expect(checked).toMatchObject({ ok: true });
      expect(checked.ok && checked.value.mentions).toEqual([]);
      // plain_text (title, fallback) never parses tags; markdown may only hold the renderer's own grey <font>
      const markdown = markdownTexts(payload).join('\n').replaceAll("<font color='grey'>", '').replaceAll('</font>', '');
      expect(markdown).toContain('&#60;at id=all>');
      expect(markdown).not.toMatch(/<\/?(at|font|person|a)[\s>]/);
    }
  });
});

describe('renderFallbackCard', () => {
  it('carries agent text only as plain_text, where tags are never parsed', () => {
    const card = renderFallbackCard(viewOf([{ at: 0, type: 'run.started' }, { at: 1, type: 'answer.delta', text: '<at id=all> hi' }], 10), OPTIONS);
    expect(markdownTexts(card)).toEqual([]);
    const checked = checkFeishuCardContent(JSON.stringify(card));
    expect(checked.ok && checked.value.mentions).toEqual([]);
  });

  it('is a plain-text 2.0 card with the same header', () => {
    const card = renderFallbackCard(viewOf(SCRIPTS.completed!('en'), 5000), OPTIONS);
    expect(card.header).toEqual(render('completed', 'en').header);
    expect(card.body.elements).toHaveLength(1);
    expect(card.body.elements[0]).toMatchObject({ tag: 'div', text: { tag: 'plain_text' } });
    const text = (card.body.elements[0]!.text as { content: string }).content;
    expect(text).toContain('All tests pass.');
    expect(text).toContain('shell: `npm test` (done · 212 passed)');
  });
});
