import { codePointLength } from '@progresscard/core/plugin';

/** An answer cut into the card's share and the continuation messages' shares. */
export interface AnswerShares {
  readonly card: string;
  readonly parts: readonly string[];
  /** Characters left out after the last allowed part. */
  readonly leftOut: number;
}

/** The first `max` code points of `text`, ended at a paragraph, line or space break in its last fifth when there is one. */
function head(text: string, max: number): string {
  // Walks only the first `max` code points: taking the whole text apart into code points at every share
  // cost a 200 000-character answer half a second per render (issue 30).
  let end = 0;
  for (let points = 0; points < max && end < text.length; points++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  if (end >= text.length) return text;
  const slice = text.slice(0, end);
  const floor = Math.floor(slice.length * 0.8);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = slice.lastIndexOf(separator);
    if (at >= floor) return slice.slice(0, at + separator.length);
  }
  return slice;
}

/** UTF-16 length of the card's share of a trimmed answer (see {@link splitAnswer}), before code fences are closed. */
export function answerShareLength(trimmedAnswer: string, cardChars: number): number {
  return head(trimmedAnswer, cardChars).length;
}

/**
 * Splits an answer: the card shows its first `cardChars`, each continuation message the next `partChars`,
 * at most `maxParts` of them; breaks fall on paragraph, line or word ends where possible. Pure: the same
 * answer always splits the same way (a part that did not change is not sent again).
 */
export function splitAnswer(answer: string, cardChars: number, partChars: number, maxParts: number): AnswerShares {
  const text = answer.trim();
  const card = head(text, cardChars);
  let rest = text.slice(card.length);
  const parts: string[] = [];
  while (rest.trim() !== '' && parts.length < maxParts) {
    const part = head(rest, partChars);
    parts.push(part.trim());
    rest = rest.slice(part.length);
  }
  const [first = '', ...others] = closeFences([card.trimEnd(), ...parts]);
  return { card: first, parts: others, leftOut: rest.trim() === '' ? 0 : codePointLength(rest.trim()) };
}

const FENCE = /^\s*(```|~~~)(.*)$/;

/** Each share with the code fences a split cut closed at its end and opened again (same fence line) at the next one's start. */
function closeFences(shares: readonly string[]): string[] {
  let open: string | undefined;
  return shares.map((share) => {
    const reopened = open === undefined ? share : `${open}\n${share}`;
    for (const line of share.split('\n')) {
      const fence = FENCE.exec(line);
      if (!fence) continue;
      open = open === undefined ? line.trim() : undefined;
    }
    return open === undefined ? reopened : `${reopened}\n${open.slice(0, 3)}`;
  });
}
