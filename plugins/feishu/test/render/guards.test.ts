import { checkFeishuCardContent } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import type { FeishuCard, FeishuElement } from '../../src/render/payload.js';
import { layoutCard, renderCard } from '../../src/render/card.js';
import { renderFallbackCard } from '../../src/render/fallback.js';
import { FEISHU_GUARD_LIMITS, fitText, inspectCard, prepareAgentMarkdown } from '../../src/render/guards.js';
import { countTables, splitBlocks } from '../../src/render/markdown/index.js';
import { f05Answer, viewOf } from '../views.js';

const OPTIONS = { footerStyle: 'compact', overflow: 'follow-up', timeZone: 'UTC' } as const;
const card = (elements: FeishuElement[]): FeishuCard => ({ schema: '2.0', config: { update_multi: true, summary: { content: '' } }, body: { elements } });
const md = (element_id: string, content: string): FeishuElement => ({ tag: 'markdown', element_id, content });

/** Every markdown text of a card, nested ones included. */
function markdownOf(c: FeishuCard): string[] {
  const out: string[] = [];
  const walk = (els: readonly FeishuElement[]) =>
    els.forEach((e) => {
      if (e.tag === 'markdown') out.push(e.content as string);
      if (Array.isArray(e.elements)) walk(e.elements as FeishuElement[]);
    });
  walk(c.body.elements);
  return out;
}
const answerOf = (c: FeishuCard) =>
  c.body.elements.filter((e) => e.element_id === 'answer' || /^answer_\d+$/.test(e.element_id ?? '')).map((e) => e.content as string).join('\n\n');

describe('inspectCard', () => {
  it('measures bytes, components (nested too) and tables, and names each problem', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |';
    const c = card([md('a', table), { tag: 'collapsible_panel', element_id: 'p', elements: [md('b', `${table}\n\n${table}\n\n${table}`)] }, md('a', 'dup'), { tag: 'note', element_id: '9bad' }]);
    const result = inspectCard(c);
    expect(result.elements).toBe(5);
    expect(result.tables).toBe(4);
    // The card as escaped into the request body's `content` string.
    expect(result.bytes).toBe(Buffer.byteLength(JSON.stringify(JSON.stringify(c))));
    expect(result.problems).toEqual([
      'element_id a is used twice',
      'tag note is not allowed in 2.0 cards',
      'element_id "9bad" is malformed',
      '4 markdown tables (limit 3)',
    ]);
  });

  it('flags content over 28 KB and more than 200 components', () => {
    expect(inspectCard(card([md('a', '字'.repeat(10_000))])).problems[0]).toMatch(/^content is \d+ bytes \(limit 28672\)$/);
    expect(inspectCard(card(Array.from({ length: 201 }, (_, i) => md(`m${i}`, 'x')))).problems).toEqual(['201 components (limit 200)']);
  });
});

describe('fitText', () => {
  it('finds the longest cut that fits, and keeps the whole text when it fits', () => {
    const text = 'word '.repeat(20_000);
    const limits = { ...FEISHU_GUARD_LIMITS, maxContentBytes: 5000 };
    const fitted = fitText(text, (cut) => card([md('a', cut ? cut.text : text)]), limits)!;
    expect(fitted.cut!.truncated).toBe(true);
    expect(inspectCard(fitted.card, limits).bytes).toBeLessThanOrEqual(5000);
    expect(inspectCard(fitted.card, limits).bytes).toBeGreaterThan(4900);
    expect(fitText('short', (cut) => card([md('a', cut ? cut.text : 'short')]))!.cut).toBeUndefined();
  });

  it('builds a handful of cards whatever the text, not one per halving of the interval', () => {
    // The old bisection built and measured 15-17 cards per fit (about 80 per final with 4 follow-up cards).
    for (const unit of ['word ', '| a | b |\n|---|---|\n| 1 | 2 |\n\n', '中文回答，表情😀。\n', '```ts\nconst x = 1; // <b>&amp;</b>\n```\n']) {
      const { text } = prepareAgentMarkdown(unit.repeat(Math.ceil(200_000 / unit.length)), FEISHU_GUARD_LIMITS.maxTables);
      let builds = 0;
      const fitted = fitText(text, (cut) => {
        builds += 1;
        return card([md('a', cut ? cut.text : text)]);
      })!;
      expect(inspectCard(fitted.card).bytes).toBeLessThanOrEqual(FEISHU_GUARD_LIMITS.maxContentBytes);
      expect(inspectCard(fitted.card).bytes).toBeGreaterThan(FEISHU_GUARD_LIMITS.maxContentBytes * 0.98);
      expect(builds, JSON.stringify(unit)).toBeLessThanOrEqual(8);
    }
  });

  it('still finds a cut longer than the byte limit when the card drops most of the text', () => {
    // The card keeps one character in a hundred: a cut of ~450 000 characters fits in 5000 bytes.
    const text = 'x'.repeat(1_000_000);
    const limits = { ...FEISHU_GUARD_LIMITS, maxContentBytes: 5000 };
    const sparse = (s: string) => s.replace(/x{1,100}/g, 'x');
    const fitted = fitText(text, (cut) => card([md('a', sparse(cut ? cut.text : text))]), limits)!;
    expect(fitted.cut!.consumed).toBeGreaterThan(400_000);
    expect(inspectCard(fitted.card, limits).bytes).toBeLessThanOrEqual(5000);
    expect(inspectCard(fitted.card, limits).bytes).toBeGreaterThan(4900);
  });
});

describe('case F05: content over the limits', () => {
  const events = (status: 'running' | 'completed') => [
    { at: 0, type: 'run.started' },
    { at: 10, type: 'answer.delta', text: f05Answer() },
    ...(status === 'completed' ? [{ at: 500, type: 'run.completed' }] : []),
  ];

  for (const status of ['running', 'completed'] as const) {
    it(`every card of the ${status} render passes Feishu's checks (no 230025 / 230099)`, () => {
      const payload = layoutCard(viewOf(events(status), 600), OPTIONS);
      const cards = [payload.card, ...(payload.continuations)];
      for (const c of cards) {
        expect(inspectCard(c).problems).toEqual([]);
        // the emulator's independent implementation of the platform checks
        expect(checkFeishuCardContent(JSON.stringify(c))).toMatchObject({ ok: true });
        for (const text of markdownOf(c)) expect(splitBlocks(text).some((b) => b.kind === 'fence' && !b.closed)).toBe(false);
        expect(countTables(markdownOf(c).join('\n\n'))).toBeLessThanOrEqual(3);
      }
    });
  }

  it('the final card says the answer was shortened and the rest continues in follow-up cards, nothing lost', () => {
    const payload = layoutCard(viewOf(events('completed'), 600), { ...OPTIONS, locale: 'en' });
    const notice = payload.card.body.elements.find((e) => e.element_id === 'answer_notice')!.content as string;
    const parts = payload.continuations;
    expect(parts.length).toBeGreaterThanOrEqual(1);
    expect(notice).toMatch(new RegExp(`this card shows the first [\\d,]+ of [\\d,]+ characters; the rest continues in the ${parts.length} card`));
    const all = [payload.card, ...parts].map(answerOf).join('\n');
    expect(all).toContain('END-OF-ANSWER');
    // every table row survives: 3 as tables, 2 as code blocks
    for (let t = 0; t < 5; t++) for (let r = 0; r < 6; r++) expect(all).toContain(`| t${t} r${r} |`);
    // every line of code survives a cut between cards
    const steps = new Set([...all.matchAll(/const step(\d+) =/g)].map((m) => Number(m[1])));
    const expected = new Set([...f05Answer().matchAll(/const step(\d+) =/g)].map((m) => Number(m[1])));
    expect([...expected].filter((n) => !steps.has(n))).toEqual([]);
  });

  it('with overflow "truncate" the final card alone says how much was cut', () => {
    const payload = layoutCard(viewOf(events('completed'), 600), { ...OPTIONS, overflow: 'truncate' });
    expect(payload.continuations).toEqual([]);
    const notice = payload.card.body.elements.find((e) => e.element_id === 'answer_notice')!.content as string;
    expect(notice).toMatch(/回答过长，已截断：此卡片只显示前 [\d,]+ 字（共 [\d,]+ 字）/);
  });

  it('a running card says the rest follows when the run ends', () => {
    const payload = layoutCard(viewOf(events('running'), 600), OPTIONS);
    expect(payload.continuations).toEqual([]);
    expect(JSON.stringify(payload.card)).toContain('完成后其余内容将以续接卡片发送');
  });

  it('a 200 000-character answer: the cards prepare only what they can hold, and the notices count all of it', () => {
    const answer = `${'| a | b |\n|---|---|\n| 1 | 2 |\n\n'.repeat(9_000)}END`;
    const view = viewOf([{ at: 0, type: 'run.started' }, { at: 10, type: 'answer.delta', text: answer }, { at: 500, type: 'run.completed' }], 600);
    const completed = layoutCard(view, { ...OPTIONS, locale: 'en' });
    // The view holds the first 200 000 characters and the core's line saying how much it left out; the
    // notice counts the answer as the card writes it (tables past the third become longer code blocks).
    // The cards hold its first 4 000 lines (36 000 lines of tiny tables would cost a render ~10 times
    // the bound of issue 30), so fewer follow-up cards than the 4 allowed, the last saying what is left out.
    const count = (text: string) => Number(text.replaceAll(',', ''));
    const notice = completed.card.body.elements.find((e) => e.element_id === 'answer_notice')!.content as string;
    const [, shown, total, cards] = /the first ([\d,]+) of ([\d,]+) characters; the rest continues in the (\d) cards? below/.exec(notice)!;
    expect(Number(cards)).toBe(completed.continuations.length);
    expect(count(total!)).toBeGreaterThanOrEqual(view.answer.length);
    expect(count(shown!)).toBeLessThan(30_000);
    const last = completed.continuations.at(-1)!;
    expect(last.body.elements.find((e) => e.element_id === 'answer_notice')!.content).toMatch(/the remaining [\d,]+ characters could not be sent/);
    for (const c of [completed.card, ...completed.continuations]) expect(inspectCard(c).problems).toEqual([]);
    const running = layoutCard(viewOf([{ at: 0, type: 'run.started' }, { at: 10, type: 'answer.delta', text: answer }], 600), { ...OPTIONS, locale: 'en' });
    const [, runningTotal] = /showing the first [\d,]+ of ([\d,]+) characters so far/.exec(JSON.stringify(running.card))!;
    expect(count(runningTotal!)).toBeGreaterThanOrEqual(view.answer.length);
  });

  it('the plain-text fallback fits too', () => {
    const c = renderFallbackCard(viewOf(events('completed'), 600), OPTIONS);
    expect(inspectCard(c).problems).toEqual([]);
    expect(checkFeishuCardContent(JSON.stringify(c))).toMatchObject({ ok: true });
  });

  it('survives thousands of tool calls and a huge thinking text', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ at: 1, type: 'tool.started', callId: `c${i}`, name: 'read_file', args: { path: `src/${'deep/'.repeat(10)}f${i}.ts` } }));
    const view = viewOf([{ at: 0, type: 'run.started' }, { at: 1, type: 'thinking.delta', text: 'think '.repeat(50_000) }, ...many, { at: 2, type: 'answer.delta', text: 'x'.repeat(40_000) }], 5000);
    const c = renderCard(view, OPTIONS);
    expect(inspectCard(c).problems).toEqual([]);
    expect(inspectCard(c).elements).toBeLessThan(20);
  });
});
