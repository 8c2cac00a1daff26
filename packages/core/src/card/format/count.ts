import type { Locale } from '../view.js';

/**
 * A count as a card shows it, grouped in thousands the way the card's language writes them:
 * `9,800,000` in both `en` and `zh-CN` (Chinese groups by thousands with a comma too). Used by every
 * "N characters not shown" notice, so the channels write counts alike.
 *
 * @param value a whole count (characters, bytes, calls)
 */
export function formatCount(value: number, locale: Locale): string {
  return value.toLocaleString(locale === 'zh-CN' ? 'zh-CN' : 'en-US');
}
