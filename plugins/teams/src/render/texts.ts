import { CARD_WORDS, formatCount, type CardWords, type Locale } from '@progresscard/core/plugin';

/** Words of the Teams cards besides the core's status words. */
interface TeamsTexts extends CardWords {
  readonly stop: string;
  readonly send: string;
  readonly answerPlaceholder: string;
  readonly part: (n: number) => string;
  readonly continuesBelow: (n: number) => string;
  readonly cutNotice: (chars: number) => string;
  readonly continuesInNext: string;
}

export const TEAMS_TEXTS: Readonly<Record<Locale, TeamsTexts>> = {
  'zh-CN': {
    ...CARD_WORDS['zh-CN'],
    stop: '停止',
    send: '发送',
    answerPlaceholder: '输入回复…',
    part: (n) => `（第 ${n} 部分）`,
    continuesBelow: (n) => `回答较长，另有 ${n} 条消息接续`,
    cutNotice: (chars) => `…其余 ${formatCount(chars, 'zh-CN')} 个字符未显示`,
    continuesInNext: '下一条消息接续',
  },
  en: {
    ...CARD_WORDS.en,
    stop: 'Stop',
    send: 'Send',
    answerPlaceholder: 'Type your answer…',
    part: (n) => `(part ${n})`,
    continuesBelow: (n) => `The answer continues in ${n} more message${n === 1 ? '' : 's'}`,
    cutNotice: (chars) => `…${formatCount(chars, 'en')} more characters not shown`,
    continuesInNext: 'Continued in the next message',
  },
};
