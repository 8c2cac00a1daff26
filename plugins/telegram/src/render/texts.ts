import type { Locale } from '@progresscard/core/plugin';

/** Words of the Telegram card besides the shared status words, per locale. */
export interface TelegramTexts {
  readonly round: (n: number) => string;
  readonly tools: (n: number) => string;
  readonly olderTools: (n: number) => string;
  readonly thinking: string;
  readonly waitingFor: string;
  readonly continuesBelow: (parts: number) => string;
  readonly answerBelow: string;
  readonly part: (n: number) => string;
  readonly cutNotice: (chars: number) => string;
  readonly stop: string;
  readonly reply: string;
  readonly timedOut: string;
}

/** The Telegram card's words. */
export const TELEGRAM_TEXTS: Readonly<Record<Locale, TelegramTexts>> = {
  'zh-CN': {
    round: (n) => `第 ${n} 轮`,
    tools: (n) => `工具调用 · ${n}`,
    olderTools: (n) => `…另有 ${n} 个较早的工具调用`,
    thinking: '思考',
    waitingFor: '等待输入',
    continuesBelow: (parts) => `回答较长，其余部分见下方 ${parts} 条消息`,
    answerBelow: '回答见下方消息',
    part: (n) => `（续 ${n}）`,
    cutNotice: (chars) => `（回答过长，已省略最后 ${chars} 个字符）`,
    stop: '⏹ 停止运行',
    reply: '回复',
    timedOut: '超时未处理',
  },
  en: {
    round: (n) => `round ${n}`,
    tools: (n) => `Tool calls · ${n}`,
    olderTools: (n) => `…and ${n} earlier tool calls`,
    thinking: 'Thinking',
    waitingFor: 'Waiting for',
    continuesBelow: (parts) => `the rest continues in ${parts} ${parts === 1 ? 'message' : 'messages'} below`,
    answerBelow: 'the answer follows below',
    part: (n) => `(part ${n})`,
    cutNotice: (chars) => `(answer too long: the last ${chars} characters were left out)`,
    stop: '⏹ Stop',
    reply: 'Reply',
    timedOut: 'timed out',
  },
};
