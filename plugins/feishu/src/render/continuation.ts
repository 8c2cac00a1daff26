import type { FeishuCard } from './payload.js';
import { fitText, type GuardLimits } from './guards.js';
import type { Truncated } from './markdown/index.js';
import { markdown } from './elements.js';
import { answerElements } from './answer-elements.js';
import type { CardTexts } from './texts.js';

/** What {@link renderContinuation} needs besides the answer. */
export interface ContinuationOptions {
  readonly title: string;
  readonly texts: CardTexts;
  /** Follow-up cards at most. */
  readonly max: number;
  readonly limits: GuardLimits;
  /** Characters after the end of `answer` that no card holds (the renderer prepared only the start of a long answer). */
  readonly leftOver?: number;
}

function card(title: string, texts: CardTexts, part: number, content: string, notice?: string): FeishuCard {
  const label = texts.continuation(part);
  return {
    schema: '2.0',
    config: { update_multi: true, summary: { content: `${title}${label}` }, width_mode: 'fill' },
    body: {
      elements: [
        markdown('part_label', `<font color='grey'>${label}</font>`, { text_size: 'notation' }),
        ...answerElements(content),
        ...(notice ? [markdown('answer_notice', `<font color='grey'>${notice}</font>`, { text_size: 'notation' })] : []),
      ],
    },
  };
}

/**
 * Splits the part of an (already escaped, table-limited) answer after `firstCut` into follow-up
 * cards that each fit the limits. A code fence cut open is closed at the end of one card and
 * reopened at the start of the next. When `max` cards are not enough, or `leftOver` characters
 * follow the answer, the last one says how much was left out.
 */
export function renderContinuation(answer: string, firstCut: Truncated, o: ContinuationOptions): FeishuCard[] {
  const cards: FeishuCard[] = [];
  const leftOver = o.leftOver ?? 0;
  let rest = answer.slice(firstCut.consumed).replace(/^\n+/, '');
  let reopen = firstCut.reopen;
  while (rest.trim() !== '' && cards.length < o.max) {
    const text = reopen !== undefined ? `${reopen}\n${rest}` : rest;
    const part = cards.length + 2; // the first card is part 1
    const last = cards.length === o.max - 1;
    // Sized with the longest notice, so the real (shorter or equal) one fits too.
    const notice = (cut: Truncated | undefined) => ((last && cut) || leftOver > 0 ? o.texts.continuationCut(text.length + leftOver) : undefined);
    const fitted = fitText(text, (cut) => card(o.title, o.texts, part, cut ? cut.text : text, notice(cut)), o.limits);
    if (!fitted) break;
    if (!fitted.cut) {
      cards.push(leftOver > 0 ? card(o.title, o.texts, part, text, o.texts.continuationCut(leftOver)) : fitted.card);
      break;
    }
    const consumed = fitted.cut.consumed;
    if (last) {
      cards[cards.length] = card(o.title, o.texts, part, fitted.cut.text, o.texts.continuationCut(text.length - consumed + leftOver));
      break;
    }
    cards.push(fitted.card);
    rest = text.slice(consumed).replace(/^\n+/, '');
    reopen = fitted.cut.reopen;
    // A reopened fence line was part of `text`; do not count it twice.
    if (consumed === 0) break;
  }
  return cards;
}
