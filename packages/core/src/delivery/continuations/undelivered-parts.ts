import type { CardView, Locale } from '../../card/view.js';
import type { CardRenderer } from '../../plugin/contract.js';
import { renderContinuationParts } from './continuation-render.js';

/** The line that ends a final's answer in place of the continuation parts the platform refused. */
const UNDELIVERED_TEXT: Readonly<Record<Locale, (characters: number) => string>> = {
  'zh-CN': (characters) => `⚠️ 回答的其余部分（${characters} 个字符）未能送达：平台拒绝了后续消息。`,
  en: (characters) => `⚠️ The rest of this answer (${characters} characters) could not be delivered: the platform refused the follow-up messages.`,
};

/** How far back from the longest fitting cut a line break is looked for (code points). */
const LINE_BREAK_LOOKBACK = 400;

/** A fence line (```` ``` ```` or `~~~`, with or without an info string) of CommonMark. */
const FENCE_LINE = /^ {0,3}(```|~~~)/;

/** `text` with a code block it leaves open closed, so a line after it is not shown as code. */
function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === undefined) open = fence;
    else if (fence === open) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

/**
 * The final `view` of a card whose continuation parts from part `keep + 2` on could not be
 * delivered (every try refused): its answer cut where the renderer needs at most `keep` parts,
 * ending with a line that says how much of the answer was not delivered, so the main card never
 * promises follow-up messages that do not exist ("continues in 9 messages below"). The cut prefers
 * a line break, never splits a surrogate pair, and closes a code block it leaves open.
 *
 * Returns `view` unchanged when its whole answer fits in `keep` parts. When the line itself does
 * not fit (parts shorter than it, or a renderer that puts every answer part in a follow-up), the
 * answer is cut without it and the line is the view's `error`, which renderers show on a finished card.
 */
export function withoutUndeliveredParts(renderer: CardRenderer<unknown>, view: CardView, keep: number, onError: (error: unknown) => void): CardView {
  const parts = (answer: string) => renderContinuationParts(renderer, { ...view, answer }, onError).length;
  if (parts(view.answer) <= keep) return view;
  const points = Array.from(view.answer);
  const notice = UNDELIVERED_TEXT[view.locale] ?? UNDELIVERED_TEXT.en;
  const prefix = (length: number) => closeOpenFence(points.slice(0, length).join('').trimEnd());
  const withNotice = (length: number) => {
    const kept = prefix(length);
    return `${kept}${kept === '' ? '' : '\n\n'}${notice(points.length - length)}`;
  };
  // The line in the answer when it fits there, else (parts too short for it) in the view's error.
  const inAnswer = parts(withNotice(0)) <= keep;
  const answerAt = inAnswer ? withNotice : prefix;
  const fits = (length: number) => parts(answerAt(length)) <= keep;
  // The longest prefix that fits: a longer prefix never needs fewer parts.
  let longest = 0;
  let tooLong = points.length;
  while (tooLong - longest > 1) {
    const middle = Math.floor((longest + tooLong) / 2);
    if (fits(middle)) longest = middle;
    else tooLong = middle;
  }
  const lineBreak = points.lastIndexOf('\n', longest - 1);
  const length = lineBreak > 0 && longest - lineBreak <= LINE_BREAK_LOOKBACK && fits(lineBreak) ? lineBreak : longest;
  if (inAnswer) return { ...view, answer: withNotice(length) };
  return { ...view, answer: prefix(length), error: notice(points.length - length).replace(/^⚠️ /, '') };
}
