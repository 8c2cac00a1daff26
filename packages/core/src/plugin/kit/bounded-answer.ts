import type { CardView } from '../../card/view.js';

/**
 * Characters past a renderer's bound that {@link boundAnswer} keeps: room for the cut to move back
 * to a line break and for markup the renderer removes (`**`, link syntax) without showing less.
 */
export const ANSWER_BOUND_MARGIN = 2_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Options of {@link boundAnswer}. */
export interface AnswerBoundOptions {
  /**
   * Lines of the answer kept at most (default: no line bound). A renderer's table and markup passes
   * cost per line far more than per character (an answer of thousands of tiny tables has a line
   * break every 8 characters), so this bounds their work where the character bound alone does not.
   */
  readonly maxLines?: number;
}

/**
 * The view with its answer cut to what a channel can show, so the renderer parses and escapes a
 * bounded amount of text whatever the answer's size (a render then blocks the event loop for a
 * bounded time). `maxChars` is what the card and its continuation parts hold at most, in UTF-16
 * code units; {@link ANSWER_BOUND_MARGIN} more are kept. The cut falls after the last line break
 * within that length (or, with none in its second half, between two code points: never inside a
 * surrogate pair); with `options.maxLines`, before the line break that ends that many lines when
 * it comes first. An open code fence is closed. A cut view's `answerSourceChars` is the whole
 * answer's length (kept when the core already set it), so notices count the answer the agent wrote;
 * {@link answerCharsNotHeld} gives what the cut view leaves out. A short answer returns the same view.
 */
export function boundAnswer(view: CardView, maxChars: number, options: AnswerBoundOptions = {}): CardView {
  const limit = Math.max(0, Math.floor(maxChars)) + ANSWER_BOUND_MARGIN;
  let end = view.answer.length;
  if (end > limit) {
    end = view.answer.lastIndexOf('\n', limit - 1);
    if (end < limit / 2) {
      end = limit;
      const code = view.answer.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1;
    }
  }
  if (options.maxLines !== undefined) end = Math.min(end, endOfLines(view.answer, Math.max(1, Math.floor(options.maxLines)), end));
  if (end >= view.answer.length) return view;
  let answer = view.answer.slice(0, end);
  const fence = openFence(answer);
  if (fence !== undefined) answer += `\n${fence}`;
  return { ...view, answer, answerSourceChars: view.answerSourceChars ?? view.answer.length };
}

/** The offset of the line break that ends the first `lines` lines of `text`, or `within` when they end later (looks no further). */
function endOfLines(text: string, lines: number, within: number): number {
  let at = -1;
  for (let line = 0; line < lines; line++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1 || at >= within) return within;
  }
  return at;
}

/** UTF-16 code units of the agent's answer that `view.answer` does not hold (0 when it holds it all). */
export function answerCharsNotHeld(view: CardView): number {
  return view.answerSourceChars === undefined ? 0 : Math.max(0, view.answerSourceChars - view.answer.length);
}

/** The marker of a code fence left open at the end of `markdown`, if one is. */
function openFence(markdown: string): string | undefined {
  let open: string | undefined;
  let from = 0;
  while (from <= markdown.length) {
    const next = markdown.indexOf('\n', from);
    const line = markdown.slice(from, next === -1 ? markdown.length : next);
    const match = FENCE.exec(line);
    if (match) {
      const marker = match[1]!;
      if (open === undefined) open = marker;
      else if (marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = undefined;
    }
    if (next === -1) break;
    from = next + 1;
  }
  return open;
}
