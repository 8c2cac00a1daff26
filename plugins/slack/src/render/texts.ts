import { CARD_WORDS, formatCount, type CardWords, type Locale } from '@progresscard/core/plugin';

/** Words of the Slack card besides the shared status words, per locale. */
export interface SlackTexts extends Omit<CardWords, 'timedOut' | 'reply'> {
  readonly continuesInThread: (parts: number) => string;
  readonly part: (n: number) => string;
  readonly cutNotice: (chars: number) => string;
  /** Below a stream that rolled over to a fresh one. */
  readonly continuesBelow: string;
  /** The thread status while the run works (assistant.threads.setStatus). */
  readonly working: string;
}

/** The Slack card's words. */
export const SLACK_TEXTS: Readonly<Record<Locale, SlackTexts>> = {
  'zh-CN': {
    ...CARD_WORDS['zh-CN'],
    continuesInThread: (parts) => `回答较长，其余部分见下方线程中的 ${parts} 条回复`,
    part: (n) => `（续 ${n}）`,
    cutNotice: (chars) => `（回答过长，已省略最后 ${formatCount(chars, 'zh-CN')} 个字符）`,
    continuesBelow: '（接下文）',
    working: '正在处理…',
  },
  en: {
    ...CARD_WORDS.en,
    continuesInThread: (parts) => `the rest continues in ${parts} ${parts === 1 ? 'reply' : 'replies'} in the thread`,
    part: (n) => `(part ${n})`,
    cutNotice: (chars) => `(answer too long: the last ${formatCount(chars, 'en')} characters were left out)`,
    continuesBelow: '(continued below)',
    working: 'is working…',
  },
};
