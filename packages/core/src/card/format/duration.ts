import type { Locale } from '../view.js';

/**
 * Formats a duration for a card: zh `45 秒`, `8 分 26 秒`, `1 分`, `1 小时 2 分`;
 * en `45s`, `8m 26s`, `1m`, `1h 2m`. Whole minutes and hours drop zero parts; hours drop seconds.
 * Sub-second parts are cut off (not rounded).
 *
 * @param ms duration in milliseconds (negative counts as 0)
 */
export function formatDuration(ms: number, locale: Locale): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const zh = locale === 'zh-CN';
  const unit = zh
    ? { h: ' 小时', m: ' 分', s: ' 秒', sep: ' ' }
    : { h: 'h', m: 'm', s: 's', sep: ' ' };
  const parts: string[] = [];
  if (hours > 0) {
    parts.push(`${hours}${unit.h}`);
    if (minutes > 0) parts.push(`${minutes}${unit.m}`);
  } else if (minutes > 0) {
    parts.push(`${minutes}${unit.m}`);
    if (seconds > 0) parts.push(`${seconds}${unit.s}`);
  } else {
    parts.push(`${seconds}${unit.s}`);
  }
  return parts.join(unit.sep);
}
