import type { Locale } from '@progresscard/core/plugin';

/** Words of the WeCom card besides the shared status words, per locale. */
export interface WeComTexts {
  readonly round: (n: number) => string;
  readonly tools: (n: number) => string;
  readonly olderTools: (n: number) => string;
  readonly thinking: string;
  readonly waitingFor: string;
  readonly continuesBelow: string;
  readonly cutNotice: (bytes: number) => string;
  readonly moved: string;
  readonly stop: string;
  readonly timedOut: string;
  readonly reply: string;
}

/** The WeCom card's words. */
export const WECOM_TEXTS: Readonly<Record<Locale, WeComTexts>> = {
  'zh-CN': {
    round: (n) => `第 ${n} 轮`,
    tools: (n) => `工具调用 · ${n}`,
    olderTools: (n) => `…另有 ${n} 个较早的工具调用`,
    thinking: '思考',
    waitingFor: '等待输入',
    continuesBelow: '回答较长，其余部分见下一条消息',
    cutNotice: (bytes) => `（回答过长，已省略最后 ${bytes} 字节）`,
    moved: '仍在运行：本条消息已达企业微信 6 分钟的刷新上限，完整结果将作为新消息发送。',
    stop: '停止运行',
    timedOut: '超时未处理',
    reply: '回复',
  },
  en: {
    round: (n) => `round ${n}`,
    tools: (n) => `Tool calls · ${n}`,
    olderTools: (n) => `…and ${n} earlier tool calls`,
    thinking: 'Thinking',
    waitingFor: 'Waiting for',
    continuesBelow: 'the rest of the answer continues in the next message',
    cutNotice: (bytes) => `(answer too long: the last ${bytes} bytes were left out)`,
    moved: 'Still running: this message reached WeCom’s 6-minute refresh limit; the complete result follows as a new message.',
    stop: 'Stop',
    timedOut: 'timed out',
    reply: 'Reply',
  },
};
