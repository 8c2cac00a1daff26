import { CARD_WORDS, formatCount, type CardWords, type Locale } from '@progresscard/core/plugin';

/** Words of the WeCom card besides the shared status words, per locale. */
export interface WeComTexts extends CardWords {
  readonly continuesBelow: string;
  readonly cutNotice: (bytes: number) => string;
  readonly moved: string;
  readonly stop: string;
}

/** The WeCom card's words. */
export const WECOM_TEXTS: Readonly<Record<Locale, WeComTexts>> = {
  'zh-CN': {
    ...CARD_WORDS['zh-CN'],
    continuesBelow: '回答较长，其余部分见下一条消息',
    cutNotice: (bytes) => `（回答过长，已省略最后 ${formatCount(bytes, 'zh-CN')} 字节）`,
    moved: '仍在运行：本条消息已达企业微信 6 分钟的刷新上限，完整结果将作为新消息发送。',
    stop: '停止运行',
  },
  en: {
    ...CARD_WORDS.en,
    continuesBelow: 'the rest of the answer continues in the next message',
    cutNotice: (bytes) => `(answer too long: the last ${formatCount(bytes, 'en')} bytes were left out)`,
    moved: 'Still running: this message reached WeCom’s 6-minute refresh limit; the complete result follows as a new message.',
    stop: 'Stop',
  },
};
