import { CARD_WORDS, formatCount, type CardWords, type Locale } from '@progresscard/core/plugin';

/** Words of the Discord card besides the shared status words, per locale. */
export interface DiscordTexts extends CardWords {
  readonly continuesBelow: (parts: number) => string;
  readonly part: (n: number) => string;
  readonly cutNotice: (chars: number) => string;
  readonly stop: string;
}

/** The Discord card's words. */
export const DISCORD_TEXTS: Readonly<Record<Locale, DiscordTexts>> = {
  'zh-CN': {
    ...CARD_WORDS['zh-CN'],
    continuesBelow: (parts) => `回答较长，其余部分见下方 ${parts} 条回复`,
    part: (n) => `（续 ${n}）`,
    cutNotice: (chars) => `（回答过长，已省略最后 ${formatCount(chars, 'zh-CN')} 个字符）`,
    stop: '⏹ 停止运行',
  },
  en: {
    ...CARD_WORDS.en,
    continuesBelow: (parts) => `the rest continues in ${parts} ${parts === 1 ? 'reply' : 'replies'} below`,
    part: (n) => `(part ${n})`,
    cutNotice: (chars) => `(answer too long: the last ${formatCount(chars, 'en')} characters were left out)`,
    stop: '⏹ Stop',
  },
};
