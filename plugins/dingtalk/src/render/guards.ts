import { codePointLength } from '@progresscard/core';
import { openCodeSpanCloser, openFence } from './markdown.js';

/**
 * Size guard of the card's markdown variable. Long replies have been seen to render as a blank
 * card with no API error (soimy/openclaw-channel-dingtalk#615), so the renderer keeps the variable
 * under `maxContentChars` code points and cuts with {@link truncateMarkdown}.
 */

/**
 * Cuts markdown to at most `maxChars` characters (code points) so it stays valid: cut at a line end
 * when one is near, never inside a `<br>` or an HTML entity, then close a code fence or inline code
 * span left open. The closing fence or backticks are counted in `maxChars`.
 * @returns the kept text, or the whole text when it already fits.
 */
export function truncateMarkdown(markdown: string, maxChars: number): string {
  const chars = Array.from(markdown);
  if (chars.length <= maxChars) return markdown;
  const room = Math.max(0, maxChars - 5); // room for "\n```" (or a longer fence) below
  let kept = chars.slice(0, room).join('');
  const lastBreak = kept.lastIndexOf('\n');
  if (lastBreak >= kept.length * 0.8) kept = kept.slice(0, lastBreak);
  kept = kept.replace(/<b?r?$|&[#a-zA-Z0-9]*$/, '').replace(/\s+$/, '');
  let fence = openFence(kept);
  while (fence !== undefined && codePointLength(kept) + fence.length + 1 > maxChars) {
    kept = Array.from(kept).slice(0, -Math.max(1, fence.length)).join('');
    fence = openFence(kept);
  }
  if (fence !== undefined) return `${kept}\n${fence}`;
  let closer = openCodeSpanCloser(kept);
  while (closer !== undefined && codePointLength(kept) + closer.length > maxChars) {
    kept = Array.from(kept).slice(0, -closer.length).join('');
    closer = openCodeSpanCloser(kept);
  }
  return kept + (closer ?? '');
}
