import type { Locale } from '@progresscard/core/plugin';

/** Words of the Slack card besides the shared status words, per locale. */
export interface SlackTexts {
  readonly round: (n: number) => string;
  readonly tools: (n: number) => string;
  readonly olderTools: (n: number) => string;
  readonly thinking: string;
  readonly waitingFor: string;
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
    round: (n) => `第 ${n} 轮`,
    tools: (n) => `工具调用 · ${n}`,
    olderTools: (n) => `…另有 ${n} 个较早的工具调用`,
    thinking: '思考',
    waitingFor: '等待输入',
    continuesInThread: (parts) => `回答较长，其余部分见下方线程中的 ${parts} 条回复`,
    part: (n) => `（续 ${n}）`,
    cutNotice: (chars) => `（回答过长，已省略最后 ${chars} 个字符）`,
    continuesBelow: '（接下文）',
    working: '正在处理…',
  },
  en: {
    round: (n) => `round ${n}`,
    tools: (n) => `Tool calls · ${n}`,
    olderTools: (n) => `…and ${n} earlier tool calls`,
    thinking: 'Thinking',
    waitingFor: 'Waiting for',
    continuesInThread: (parts) => `the rest continues in ${parts} ${parts === 1 ? 'reply' : 'replies'} in the thread`,
    part: (n) => `(part ${n})`,
    cutNotice: (chars) => `(answer too long: the last ${chars} characters were left out)`,
    continuesBelow: '(continued below)',
    working: 'is working…',
  },
};
