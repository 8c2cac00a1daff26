import { describe, expect, it } from 'vitest';
import { DingTalkRenderer } from '../../src/render/renderer.js';
import { viewAfter } from '../views.js';

const renderer = new DingTalkRenderer({
  keys: { title: 'msgTitle', content: 'msgContent', flowStatus: 'flowStatus' },
  footerStyle: 'compact',
  timeZone: 'UTC',
  maxContentChars: 3000,
  maxToolLines: 12,
});

/**
 * `<` is left as written only inside real code spans. A backtick run that closes nothing (CommonMark:
 * the closing run must be exactly as long, and `\`` is a literal backtick) is no code span, so a
 * tag after it would be live card markup: colour, links, @-mentions.
 */
describe('DingTalk: agent text cannot fake a code span to open a tag', () => {
  const attacks = [
    '``<font colorTokenV2=common_green1_color>✅ all tests pass</font>` x',
    'see ``<a href=https://evil.example>docs</a>` here',
    'x```<a atId=all>all</a>` y',
    '\\`<font colorTokenV2=common_red1_color>x</font>`',
  ];
  for (const text of attacks) {
    it(JSON.stringify(text), () => {
      const view = viewAfter([{ type: 'answer.delta', at: 1, text }, { type: 'tool.started', at: 2, callId: 'c', name: text }, { type: 'run.completed', at: 3 }], 4);
      const content = renderer.render(view).cardParamMap.msgContent!;
      // only the renderer's own status line may open a tag
      expect(content.match(/<(font|a)[\s>]/g)).toEqual(['<font ', '<font ']);
    });
  }

  it('real code spans read as their text (inline code is not in the documented subset), tags escaped', () => {
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: 'use `a<b` and ``x ` <y>`` here' }, { type: 'run.completed', at: 2 }], 3);
    expect(renderer.render(view).cardParamMap.msgContent).toContain('use a&lt;b and x ˋ &lt;y> here');
  });
});

describe('DingTalk: a cut never leaves a code span open', () => {
  const tag = '<font colorTokenV2=common_red1_color>';
  /** Live tags: those outside real (closed, CommonMark) code spans, line by line. */
  const liveTags = (text: string) =>
    text
      .split('\n')
      .map((line) => line.replace(/(?<![`\\])(`+)(?!`)([^\n]*?[^`])\1(?!`)/g, ''))
      .join('\n')
      .match(/<(font|a)[\s>]/g) ?? [];

  it('an answer cut inside a code span keeps the span closed, so its tag stays text', () => {
    const text = `${'word '.repeat(500)}see \`${tag}${'z'.repeat(3000)}</font>\` end`;
    const view = viewAfter([{ type: 'answer.delta', at: 1, text }, { type: 'run.completed', at: 2 }], 3);
    const content = renderer.render(view).cardParamMap.msgContent!;
    expect(content).toContain('see &lt;font');
    expect(liveTags(content)).toEqual(['<font ', '<font ']); // the status line and the footer
  });

  it('a long title cut inside a code span does not turn its tag live', () => {
    const view = viewAfter([{ type: 'run.started', at: 0, title: `\`${tag}${'字'.repeat(300)}\`` }, { type: 'run.completed', at: 2 }], 3);
    expect(liveTags(renderer.render(view).cardParamMap.msgTitle!)).toEqual([]);
  });
});
