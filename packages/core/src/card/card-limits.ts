import { formatCount } from './format/count.js';
import type { Locale } from './view.js';

/**
 * What one card holds at most, so that no event and no render costs more than a bounded amount of
 * work whatever the agent sends (a 10 MB answer once blocked the event loop for seconds and delayed
 * other cards' finals). Text past a limit is dropped when it arrives, and the card says so.
 */

/**
 * Most answer text a card holds, in UTF-16 code units: more than any channel shows across its
 * message and continuation parts, so the channels' own "N more characters" notices still apply
 * below it.
 */
export const MAX_ANSWER_CHARS = 200_000;

/** Most thinking text a card holds, in UTF-16 code units (channels show its end, if at all). */
export const MAX_THINKING_CHARS = 50_000;

/** Most characters of a tool result summary kept (a tool line shows its first line, cut far shorter). */
export const MAX_TOOL_SUMMARY_CHARS = 2_000;

/** Most characters of a tool argument string read for the line's detail (the detail shows 80). */
export const MAX_TOOL_DETAIL_SOURCE_CHARS = 4_096;

/** Most characters of a failed run's error or a cancel reason kept. */
export const MAX_ERROR_CHARS = 4_000;

/** The first `max` UTF-16 units of `text` (never ending in half a surrogate pair) and how many were left out. */
export function capText(text: string, max: number): { readonly text: string; readonly dropped: number } {
  if (text.length <= max) return { text, dropped: 0 };
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return { text: text.slice(0, end), dropped: text.length - end };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * The line a card adds under text it cut at a limit, in the card's language, e.g.
 * "… answer cut: 9 800 000 more characters not shown".
 */
export function cutNotice(what: 'answer' | 'thinking', dropped: number, locale: Locale): string {
  const count = formatCount(dropped, locale);
  if (locale === 'zh-CN') return `\n\n…（${what === 'answer' ? '回答' : '思考'}过长，另有 ${count} 个字符未显示）`;
  return `\n\n… ${what} cut: ${count} more characters not shown`;
}
