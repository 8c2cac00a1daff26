import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dingtalk } from '../../src/index.js';
import { openFence } from '../../src/render/markdown.js';
import { DingTalkRenderer, type DingTalkRendererOptions } from '../../src/render/renderer.js';
import { viewAfter, viewsByStatus } from '../views.js';

const options: DingTalkRendererOptions = {
  keys: { title: 'msgTitle', content: 'msgContent', flowStatus: 'flowStatus' },
  footerStyle: 'compact',
  timeZone: 'UTC',
  maxContentChars: 3000,
  maxToolLines: 12,
};
const renderer = new DingTalkRenderer(options);

describe('DingTalk renderer: one card per status', () => {
  const zh = viewsByStatus('zh-CN');
  const en = viewsByStatus('en');

  it('running (zh): status line, live tool duration, flowStatus 2 (inputting), no footer yet', () => {
    const { cardParamMap: m } = renderer.render(zh.running);
    expect(m.msgTitle).toBe('Refactor parser');
    expect(m.flowStatus).toBe('2');
    expect(m.msgContent).toBe('<font colorTokenV2=common_blue1_color>⏳ **运行中**</font> · 第 1 轮\n\n* shell: npm test（执行中 · 5 秒）');
  });

  it('waiting (zh): shows the prompt and keeps the card live', () => {
    const { cardParamMap: m } = renderer.render(zh.waiting);
    expect(m.flowStatus).toBe('2');
    expect(m.msgContent).toContain('⏸️ **等待输入**');
    expect(m.msgContent).toContain('**等待**：Allow git push?');
  });

  it('completed (zh): finished (3), tool summary, answer, footer with duration, model and time', () => {
    const { cardParamMap: m } = renderer.render(zh.completed);
    expect(m.flowStatus).toBe('3');
    expect(m.msgContent).toBe(
      [
        '<font colorTokenV2=common_green1_color>✅ **已完成**</font> · 第 1 轮',
        '* shell: npm test（完成 · 212 passed）',
        'All tests pass.',
        '***',
        '<font colorTokenV2=common_level3_base_color>4 秒 · model-x · 08:00</font>',
      ].join('\n\n'),
    );
  });

  it('failed (zh): finished (3, shown by every template) with ❌ and the error; with failedState failed: 5 and isError; cancelled (zh): terminal (3), never spinning, with the reason', () => {
    const failed = renderer.render(zh.failed).cardParamMap;
    expect(failed.flowStatus).toBe('3');
    expect(renderer.render(zh.failed).streamEnd).toBe('finalize');
    const failedState = new DingTalkRenderer({ ...options, failedState: 'failed' }).render(zh.failed);
    expect(failedState.cardParamMap.flowStatus).toBe('5');
    expect(failedState.streamEnd).toBe('error');
    expect(failed.msgContent).toContain('❌ **失败**');
    expect(failed.msgContent).toContain('**错误**：model overloaded');
    const cancelled = renderer.render(zh.cancelled).cardParamMap;
    expect(cancelled.flowStatus).toBe('3');
    expect(cancelled.msgContent).toContain('⏹️ **已取消**');
    expect(cancelled.msgContent).toContain('**原因**：stopped by user');
    expect(cancelled.msgContent).not.toContain('执行中');
  });

  it('renders every status in English', () => {
    const content = (s: keyof typeof en) => renderer.render(en[s]).cardParamMap.msgContent;
    expect(content('running')).toBe('<font colorTokenV2=common_blue1_color>⏳ **Running**</font> · round 1\n\n* shell: npm test (running · 5s)');
    expect(content('waiting')).toContain('**Waiting for**：Allow git push?');
    expect(content('completed')).toContain('* shell: npm test (done · 212 passed)\n\nAll tests pass.');
    expect(content('completed')).toContain('4s · model-x · 08:00');
    expect(content('failed')).toContain('❌ **Failed**');
    expect(content('failed')).toContain('**Error**：model overloaded');
    expect(content('cancelled')).toContain('⏹️ **Cancelled**');
  });

  it('uses the configured locale over the run’s, tool lines included', () => {
    const english = new DingTalkRenderer({ ...options, locale: 'en' });
    const content = english.render(zh.running).cardParamMap.msgContent;
    expect(content).toContain('**Running**');
    expect(content).toContain('* shell: npm test (running · 5s)');
  });

  it('no hex colours and no Feishu tags anywhere', () => {
    for (const view of [...Object.values(zh), ...Object.values(en)]) {
      const content = renderer.render(view).cardParamMap.msgContent!;
      expect(content).not.toMatch(/#[0-9a-fA-F]{3,6}\b|<(at|text_tag|lark_md|note)\b/);
    }
  });

  it('is deterministic: equal views give equal payloads', () => {
    expect(renderer.render(zh.completed)).toEqual(renderer.render(viewsByStatus('zh-CN').completed));
  });
});

describe('DingTalk renderer: agent text', () => {
  it('escapes tags so agent text cannot @-mention or restyle, outside code only', () => {
    const view = viewAfter(
      [
        { type: 'run.started', at: 0, title: 'Fix <font colorTokenV2=common_red1_color>x</font>' },
        { type: 'answer.delta', at: 1, text: 'Ping <a atId=boss>boss</a> about `a<b`\n```ts\nif (a < b) {}\n```' },
        { type: 'run.failed', at: 2, error: '<br>boom' },
      ],
      3,
    );
    const m = renderer.render(view).cardParamMap;
    expect(m.msgTitle).toBe('Fix &lt;font colorTokenV2=common_red1_color>x&lt;/font>');
    expect(m.msgContent).toContain('Ping &lt;a atId=boss>boss&lt;/a> about a&lt;b');
    expect(m.msgContent).toContain('```ts\nif (a < b) {}\n```');
    expect(m.msgContent).toContain('**错误**：&lt;br>boom');
  });

  it('keeps line breaks: <br> inside paragraphs and after a list item, a blank line before a table', () => {
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: 'one\ntwo\n- a\n- b\nsee:\n| x | y |\n|---|---|\n| 1 | 2 |' }, { type: 'run.completed', at: 2 }], 3);
    const content = renderer.render(view).cardParamMap.msgContent!;
    expect(content).toContain('one<br>\ntwo\n* a\n* b<br>\nsee:\n\n| x | y |\n|---|---|\n| 1 | 2 |');
  });

  it('shows the latest thinking while nothing is answered, and only its header with the time at the end', () => {
    const thinking = [{ type: 'thinking.delta', at: 1, text: 'Plan: check the config, then answer.' }];
    expect(renderer.render(viewAfter(thinking, 2)).cardParamMap.msgContent).toContain('> 💭 思考中…：Plan: check the config, then answer.');
    const final = renderer.render(viewAfter([...thinking, { type: 'run.completed', at: 2, answer: 'Done.' }], 3)).cardParamMap.msgContent;
    expect(final).toContain('> 💭 思考过程');
    expect(final).not.toContain('Plan: check the config');
  });

  it('every cardParamMap value is a string, extra template params JSON-encoded', () => {
    const plugin = dingtalk({ appKey: 'k', appSecret: 's', cardTemplateId: 't', cardParams: { config: { autoLayout: true }, logo: '@lALx', n: 3 } });
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('run.completed', 'run.failed', 'run.cancelled', 'none'), (title, text, end) => {
        const events: Array<Record<string, unknown>> = [{ type: 'run.started', at: 0, title }, { type: 'answer.delta', at: 1, text }];
        if (end === 'run.failed') events.push({ type: end, at: 2, error: text });
        else if (end !== 'none') events.push({ type: end, at: 2 });
        const view = viewAfter(events, 3);
        for (const payload of [plugin.renderer.render(view), plugin.renderer.renderFallback(view)]) {
          for (const value of Object.values(payload.cardParamMap)) expect(typeof value).toBe('string');
          expect(payload.cardParamMap.config).toBe('{"autoLayout":true}');
          expect(payload.cardParamMap.n).toBe('3');
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('DingTalk renderer: documented markdown subset', () => {
  it('uses * bullets and at most five heading levels, shows inline code as text, neutralises tags inside fences', () => {
    const text = '###### deep\n- one\n+ two\nrun `ls <dir>` now\n```html\n<font colorTokenV2=common_red1_color>x</font> <a atId=all>\n```';
    const content = renderer.render(viewAfter([{ type: 'answer.delta', at: 1, text }, { type: 'run.completed', at: 2 }], 3)).cardParamMap.msgContent!;
    expect(content).toContain('##### deep\n* one\n* two<br>\nrun ls &lt;dir> now');
    expect(content).toContain('```html\n<\u200bfont colorTokenV2=common_red1_color>x<\u200b/font> <\u200ba atId=all>\n```');
    expect(content).not.toMatch(/`[^`\n]+`/);
  });

  it('sends the layout variables of the AI Markdown template (order: title, content) unless turned off', () => {
    const view = viewsByStatus('zh-CN').completed;
    const m = renderer.render(view).cardParamMap;
    expect(JSON.parse(m.sys_full_json_obj!)).toEqual({ order: ['msgTitle', 'msgContent'] });
    expect(JSON.parse(m.config!)).toEqual({ autoLayout: true, enableForward: true });
    const bare = new DingTalkRenderer({ ...options, layoutVariables: false }).render(view).cardParamMap;
    expect(bare.sys_full_json_obj).toBeUndefined();
  });
});

describe('DingTalk renderer: size guard', () => {
  const prose = (n: number) => Array.from({ length: n }, (_, i) => `第 ${i} 段：解析器现在接受尾随逗号。`).join('\n\n');

  const longAnswer = `${prose(60)}\n\n\`\`\`ts\n${Array.from({ length: 400 }, (_, i) => `const x${i} = ${i};`).join('\n')}`; // fence never closed
  const toolEvents = [{ type: 'tool.started', at: 1, callId: 'a', name: 'grep', args: '{"pattern":"x"}' }, { type: 'tool.finished', at: 2, callId: 'a', summary: '3 matches' }];

  it('shortens a long answer of a running card to valid markdown (code fence closed) and says so', () => {
    const view = viewAfter([...toolEvents, { type: 'answer.delta', at: 3, text: longAnswer }], 5);
    const m = renderer.render(view).cardParamMap;
    expect(Array.from(m.msgContent!).length).toBeLessThanOrEqual(3000);
    expect(openFence(m.msgContent!)).toBeUndefined();
    // Counts grouped in thousands, as on every channel.
    expect(m.msgContent).toMatch(/（内容过长，已截断：显示前 \d,\d{3} \/ \d{1,3},\d{3} 字）/);
    expect(m.msgContent).toContain('grep: x（完成 · 3 matches）');
    expect(renderer.renderContinuations(view)).toEqual([]);
  });

  it('continues a long final answer in follow-up messages: each within the limit, fences balanced, nothing lost', () => {
    const view = viewAfter([...toolEvents, { type: 'answer.delta', at: 3, text: longAnswer }, { type: 'run.completed', at: 4 }], 5);
    const m = renderer.render(view).cardParamMap;
    const parts = renderer.renderContinuations(view);
    expect(parts.length).toBeGreaterThan(1);
    expect(m.msgContent).toContain(`（内容较长，余下部分见后续 ${parts.length} 条消息）`);
    expect(m.msgContent).toContain('第 0 段');
    expect(m.msgContent).toMatch(/common_level3_base_color>0 秒 · 08:00<\/font>$/);
    for (const [index, part] of parts.entries()) {
      const content = part.cardParamMap.msgContent!;
      expect(Array.from(content).length).toBeLessThanOrEqual(3000);
      expect(openFence(content)).toBeUndefined();
      expect(part.cardParamMap.msgTitle).toBe(`智能体任务（续 ${index + 2}/${parts.length + 1}）`);
      expect(part.cardParamMap.flowStatus).toBe('3');
      expect(part.streamEnd).toBe('finalize');
    }
    const all = [m.msgContent!, ...parts.map((part) => part.cardParamMap.msgContent!)].join('\n');
    for (const line of longAnswer.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('```'))) expect(all).toContain(line.trim());
  });

  it('splits at 2 500 code points by default (a peer measured blank cards above about 3 000)', () => {
    const plugin = dingtalk({ appKey: 'k', appSecret: 's', cardTemplateId: 't' });
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: '字'.repeat(9000) }, { type: 'run.completed', at: 2 }], 3);
    const payloads = [plugin.renderer.render(view), ...plugin.renderer.renderContinuations!(view)];
    expect(payloads.length).toBeGreaterThanOrEqual(4);
    for (const payload of payloads) expect(Array.from(payload.cardParamMap.msgContent!).length).toBeLessThanOrEqual(2500);
    expect(payloads.map((p) => p.cardParamMap.msgContent!).join('').match(/字/g)).toHaveLength(9000);
  });

  it('holds any answer and any number of tools within the limit', () => {
    const small = new DingTalkRenderer({ ...options, maxContentChars: 800 });
    fc.assert(
      fc.property(fc.string({ maxLength: 4000 }), fc.integer({ min: 0, max: 60 }), (text, tools) => {
        const events: Array<Record<string, unknown>> = [];
        for (let i = 0; i < tools; i++) events.push({ type: 'tool.started', at: i, callId: `c${i}`, name: 'read_file', args: { path: `src/${'deep/'.repeat(10)}f${i}.ts` } });
        events.push({ type: 'answer.delta', at: 100, text: `\`\`\`\n${text}` });
        const content = small.render(viewAfter(events, 200)).cardParamMap.msgContent!;
        expect(Array.from(content).length).toBeLessThanOrEqual(800);
        expect(openFence(content)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('shows running tools first when there are more than maxToolLines', () => {
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 20; i++) events.push({ type: 'tool.started', at: i, callId: `c${i}`, name: `t${i}` });
    for (let i = 1; i < 20; i++) events.push({ type: 'tool.finished', at: 30, callId: `c${i}` });
    const content = new DingTalkRenderer({ ...options, maxToolLines: 4 }).render(viewAfter(events, 40)).cardParamMap.msgContent!;
    expect(content).toContain('* …另有 16 个较早的工具调用');
    expect(content).toContain('t0：执行中…');
    expect(content).toMatch(/t17[\s\S]*t18[\s\S]*t19/);
    expect(content).not.toContain('t16');
  });
});

describe('DingTalk renderer: streaming answer', () => {
  it('closes a code block the answer has not closed yet, so the footer is not swallowed', () => {
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: 'Here:\n```sh\nnpm te' }, { type: 'run.completed', at: 2 }], 3);
    const content = renderer.render(view).cardParamMap.msgContent!;
    expect(content).toContain('Here:\n\n```sh\nnpm te\n```\n\n***');
    expect(openFence(content)).toBeUndefined();
  });
});

describe('DingTalk renderer: plain-text fallback', () => {
  it('has no tags, no code fences and no table pipes, but keeps the status, tools and answer', () => {
    const view = viewAfter(
      [
        { type: 'tool.started', at: 1, callId: 'a', name: 'shell', args: '{"command":"ls"}' },
        { type: 'tool.finished', at: 2, callId: 'a', summary: 'ok' },
        { type: 'answer.delta', at: 3, text: '## Result\n| a | b |\n|---|---|\n| 1 | 2 |\n```\ncode <x>\n```\n**bold**' },
        { type: 'run.completed', at: 4 },
      ],
      5,
      'en',
    );
    const m = renderer.renderFallback(view).cardParamMap;
    expect(m.flowStatus).toBe('3');
    expect(m.msgContent).not.toMatch(/<[a-z]|```|\|/);
    expect(m.msgContent).toContain('✅ Completed');
    expect(m.msgContent).toContain('· shell: ls (done · ok)');
    expect(m.msgContent).toContain('Result\n\na · b\n\n1 · 2\n\ncode &lt;x>\n\nbold');
  });
});
