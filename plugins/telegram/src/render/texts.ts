import { CARD_WORDS, formatCount, type CardWords, type Locale } from '@progresscard/core/plugin';

/** Words of the Telegram card besides the shared status words, per locale. */
export interface TelegramTexts extends CardWords {
  readonly continuesBelow: (parts: number) => string;
  readonly answerBelow: string;
  readonly part: (n: number) => string;
  readonly cutNotice: (chars: number) => string;
  readonly stop: string;
}

/** The Telegram card's words. */
export const TELEGRAM_TEXTS: Readonly<Record<Locale, TelegramTexts>> = {
  'zh-CN': {
    ...CARD_WORDS['zh-CN'],
    continuesBelow: (parts) => `回答较长，其余部分见下方 ${parts} 条消息`,
    answerBelow: '回答见下方消息',
    part: (n) => `（续 ${n}）`,
    cutNotice: (chars) => `（回答过长，已省略最后 ${formatCount(chars, 'zh-CN')} 个字符）`,
    stop: '⏹ 停止运行',
  },
  en: {
    ...CARD_WORDS.en,
    continuesBelow: (parts) => `the rest continues in ${parts} ${parts === 1 ? 'message' : 'messages'} below`,
    answerBelow: 'the answer follows below',
    part: (n) => `(part ${n})`,
    cutNotice: (chars) => `(answer too long: the last ${formatCount(chars, 'en')} characters were left out)`,
    stop: '⏹ Stop',
  },
};
