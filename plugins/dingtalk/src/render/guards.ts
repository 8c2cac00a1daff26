import { codePointLength } from '@progresscard/core/plugin';
import { openFence } from './markdown.js';

/**
 * Size guard of the card's markdown variable. The docs cap a card variable at 1 KB
 * (https://open.dingtalk.com/document/development/create-and-deliver-cards) and the streaming
 * content at "preferably under 3 K" in total (https://open.dingtalk.com/document/development/api-streamingupdate);
 * replies above about 3 000 characters have been seen to render as a blank card with no API error
 * (soimy/openclaw-channel-dingtalk#615, fixed there by splitting at 2 500 code points). The renderer
 * keeps the variable under `maxContentChars` code points and cuts with {@link cutMarkdown}.
 */

/** Result of {@link cutMarkdown}. */
export interface MarkdownCut {
  /** The kept text, valid markdown: a code fence open at the cut is closed. */
  readonly text: string;
  /** Code points of the input the kept text covers; the rest starts there. */
  readonly consumed: number;
  /** The fence open at the cut: reopen it where the rest continues. */
  readonly reopen?: string;
}

/**
 * Cuts markdown to at most `maxChars` code points so it stays valid: cut at a line end when one is
 * near, never inside a `<br>` or an HTML entity, then close a code fence left open (the closing fence
 * is counted in `maxChars`).
 */
export function cutMarkdown(markdown: string, maxChars: number): MarkdownCut {
  // Only the first `maxChars` + 1 code points matter: the cost stays bounded by `maxChars`.
  const windowEnd = offsetAfterCodePoints(markdown, 0, maxChars + 1);
  const chars = Array.from(markdown.slice(0, windowEnd));
  if (chars.length <= maxChars) return { text: markdown, consumed: chars.length };
  const room = Math.max(0, maxChars - 5); // room for "\n```" (or a longer fence) below
  let kept = chars.slice(0, room).join('');
  const lastBreak = kept.lastIndexOf('\n');
  if (lastBreak >= kept.length * 0.8) kept = kept.slice(0, lastBreak);
  kept = kept.replace(/<b?r?$|&[#a-zA-Z0-9]*$/, '');
  let fence = openFence(kept);
  while (fence !== undefined && codePointLength(kept) + fence.length + 1 > maxChars) {
    kept = Array.from(kept).slice(0, -Math.max(1, fence.length)).join('');
    fence = openFence(kept);
  }
  const consumed = codePointLength(kept);
  const text = kept.replace(/\s+$/, '');
  return fence === undefined ? { text, consumed } : { text: `${text}\n${fence}`, consumed, reopen: fence };
}

/** {@link cutMarkdown}'s text: the kept markdown, or the whole text when it already fits. */
export function truncateMarkdown(markdown: string, maxChars: number): string {
  return cutMarkdown(markdown, maxChars).text;
}

/** Result of {@link splitMarkdown}. */
export interface MarkdownSplit {
  /** The parts, in order, each at most `maxChars` code points. */
  readonly parts: readonly string[];
  /** Code points of the text after the last part that no part holds (0 when the parts hold it all). */
  readonly leftOut: number;
}

/** UTF-16 offset reached after `count` code points of `text` from `start` (or the end of `text`). */
export function offsetAfterCodePoints(text: string, start: number, count: number): number {
  let index = start;
  for (let n = 0; n < count && index < text.length; n++) {
    const unit = text.charCodeAt(index);
    const low = text.charCodeAt(index + 1);
    index += unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return index;
}

/** Code points of `text` from `start` to its end. */
function codePointsFrom(text: string, start: number): number {
  let count = 0;
  for (let index = start; index < text.length; count++) index = offsetAfterCodePoints(text, index, 1);
  return count;
}

const NON_SPACE = /\S/g;

/** Whether `text` from `start` on is only whitespace. */
function blankFrom(text: string, start: number): boolean {
  NON_SPACE.lastIndex = start;
  return !NON_SPACE.test(text);
}

/**
 * Splits markdown into parts of at most `maxChars` code points each, in order, cut like
 * {@link cutMarkdown}: a fence open at a cut is closed there and reopened at the start of the next part.
 * Stops after `maxParts` parts (default: all) and only counts the code points of what is left.
 * Nothing else is lost: the parts hold the text (apart from the whitespace at the cuts). Linear in the
 * text: each part looks only at its own window of `maxChars` code points.
 */
export function splitMarkdown(markdown: string, maxChars: number, maxParts = Number.POSITIVE_INFINITY): MarkdownSplit {
  const parts: string[] = [];
  // The rest is `pending` (a reopened fence, or what is left of one) followed by `markdown` from `start`.
  let pending = '';
  let start = 0;
  const restLength = () => pending.length + markdown.length - start;
  /** Drops `units` UTF-16 units from the front of the rest. */
  const advance = (units: number) => {
    if (units < pending.length) pending = pending.slice(units);
    else {
      start += units - pending.length;
      pending = '';
    }
  };
  const dropLeadingNewlines = () => {
    pending = pending.replace(/^\n+/, '');
    if (pending === '') while (markdown.charCodeAt(start) === 10) start += 1;
  };
  while (pending.trim() !== '' || !blankFrom(markdown, start)) {
    if (parts.length >= maxParts) return { parts, leftOut: codePointLength(pending) + codePointsFrom(markdown, start) };
    // One code point more than fits tells cutMarkdown that the rest goes on past the window.
    const window = pending + markdown.slice(start, offsetAfterCodePoints(markdown, start, maxChars + 1));
    const cut = cutMarkdown(window, maxChars);
    if (cut.consumed === 0 && cut.text.trim() === '') {
      // Not even one line fits with its fence: take a hard slice so the split always advances.
      const hard = Array.from(window).slice(0, maxChars).join('');
      parts.push(hard);
      advance(hard.length);
      continue;
    }
    parts.push(cut.text);
    const before = restLength();
    advance(offsetAfterCodePoints(window, 0, cut.consumed));
    dropLeadingNewlines();
    // A reopened fence must leave room to advance.
    if (cut.reopen !== undefined && (pending.trim() !== '' || !blankFrom(markdown, start)) && cut.reopen.length + 1 + restLength() < before) {
      pending = `${cut.reopen}\n${pending}`;
    }
  }
  return { parts, leftOut: 0 };
}
