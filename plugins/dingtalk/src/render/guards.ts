import { codePointLength } from '@progresscard/core';
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
  const chars = Array.from(markdown);
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

/**
 * Splits markdown into parts of at most `maxChars` code points each, in order, cut like
 * {@link cutMarkdown}: a fence open at a cut is closed there and reopened at the start of the next part.
 * Nothing is lost: the parts hold the whole text (apart from the whitespace at the cuts).
 */
export function splitMarkdown(markdown: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = markdown;
  while (rest.trim() !== '') {
    const cut = cutMarkdown(rest, maxChars);
    if (cut.consumed === 0 && cut.text.trim() === '') {
      // Not even one line fits with its fence: take a hard slice so the split always advances.
      parts.push(Array.from(rest).slice(0, maxChars).join(''));
      rest = Array.from(rest).slice(maxChars).join('');
      continue;
    }
    parts.push(cut.text);
    const remaining = Array.from(rest).slice(cut.consumed).join('').replace(/^\n+/, '');
    const reopened = cut.reopen !== undefined && remaining.trim() !== '' ? `${cut.reopen}\n${remaining}` : remaining;
    // A reopened fence must leave room to advance.
    rest = reopened.length < rest.length || cut.reopen === undefined ? reopened : remaining;
  }
  return parts;
}
