import { formatClockTime } from '../../card/format/footer.js';
import type { CardNotice, Locale } from '../../card/view.js';

const TEXTS: Readonly<Record<Locale, Readonly<Record<CardNotice['kind'], (time: string) => string>>>> = {
  'zh-CN': {
    'no-progress': (time) => `⏸ 自 ${time} 起无进展`,
    'updates-interrupted': (time) => `⚠️ 实时更新自 ${time} 起中断过，现已恢复`,
  },
  en: {
    'no-progress': (time) => `⏸ No progress since ${time}`,
    'updates-interrupted': (time) => `⚠️ Live updates were interrupted from ${time}; they are back`,
  },
};

/**
 * A card notice as one line of text in `locale`, its time as `HH:mm` in `timeZone` (default the
 * process's), e.g. `⏸ 自 14:05 起无进展` or `⏸ No progress since 14:05`.
 */
export function noticeText(notice: CardNotice, locale: Locale, timeZone?: string): string {
  return TEXTS[locale][notice.kind](formatClockTime(notice.since, timeZone));
}
