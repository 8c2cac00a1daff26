/**
 * Every channel writes the counts of its "answer cut" notices grouped in thousands (`190,000`), in
 * English and Chinese alike: Slack's and DingTalk's notices once wrote `187000` beside Feishu's
 * `187,000`. The answer (190 000 characters) is longer than any channel shows with its continuation
 * parts, yet shorter than the core holds, so each notice is the channel's own.
 */
import { describe, expect, it } from 'vitest';
import { CardState, type Locale } from '@progresscard/core';
import type { CardRenderer } from '@progresscard/core/plugin';
import { RENDERERS } from '../support/renderers.js';


/** The counts in a channel's cut notices: the number before "characters"/"bytes" (or "of"), and before 个字符/字节/字 or "/". */
const COUNTS: Record<Locale, RegExp> = {
  en: /\d[\d,]*(?= (?:more )?(?:characters|bytes)| of \d)/g,
  'zh-CN': /\d[\d,]*(?= ?(?:个字符|字节|字|\/))/g,
};

function drawnText(make: () => CardRenderer<unknown>, locale: Locale): string {
  const at = 1_700_000_000_000;
  const state = new CardState({ startedAt: at, locale });
  state.apply({ type: 'run.started', title: 'Long answer' }, at);
  state.apply({ type: 'run.completed', answer: 'word '.repeat(38_000) }, at);
  const view = state.view(at);
  const renderer = make();
  return JSON.stringify([renderer.render(view), renderer.renderContinuations?.(view) ?? []]);
}

describe('cut notices write counts grouped in thousands on every channel', () => {
  for (const [channel, make] of Object.entries(RENDERERS)) {
    for (const locale of ['en', 'zh-CN'] as const) {
      it(`${channel} (${locale})`, () => {
        const counts = drawnText(make, locale).match(COUNTS[locale]) ?? [];
        const large = counts.filter((count) => count.replaceAll(',', '').length >= 4);
        expect(large.length).toBeGreaterThan(0);
        for (const count of large) expect(count).toMatch(/^\d{1,3}(?:,\d{3})+$/);
      });
    }
  }
});
