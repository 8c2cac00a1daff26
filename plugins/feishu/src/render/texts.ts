import { DEFAULT_TITLES, formatCount, STATUS_LABELS, TOOL_CALLS_HEADINGS, type CardStatus, type Locale } from '@progresscard/core/plugin';
import type { FeishuTemplate } from './payload.js';

/** Words of the Feishu card, per locale. */
export interface CardTexts {
  readonly defaultTitle: string;
  /** The shared status words (`STATUS_LABELS` of the core). */
  readonly status: Readonly<Record<CardStatus, string>>;
  /** `第 3 轮` / `round 3`. */
  round(n: number): string;
  readonly separator: string;
  readonly tools: string;
  readonly thinking: string;
  readonly thinkingNow: string;
  readonly noAnswer: string;
  /** Between a label and its text: `：` / `: `. */
  readonly colon: string;
  readonly waitingLabel: string;
  readonly failedLabel: string;
  readonly cancelledLabel: string;
  earlierTools(n: number): string;
  moreEarlierTools(n: number): string;
  /** Notice under an answer cut to fit the card. */
  truncated(shown: number, total: number, continuationCards: number): string;
  /** Notice on a running card whose answer does not fit yet. */
  truncatedRunning(shown: number, total: number): string;
  continuation(part: number): string;
  continuationCut(rest: number): string;
}

/** Counts in notices, grouped in thousands like every channel's. */
const n = formatCount;

/** Chinese (default) and English texts. */
export const CARD_TEXTS: Readonly<Record<Locale, CardTexts>> = {
  'zh-CN': {
    defaultTitle: DEFAULT_TITLES['zh-CN'],
    status: STATUS_LABELS['zh-CN'],
    round: (r) => `第 ${r} 轮`,
    separator: ' · ',
    tools: TOOL_CALLS_HEADINGS['zh-CN'],
    thinking: '思考过程',
    thinkingNow: '⏳ 正在思考…',
    noAnswer: '（没有回答内容）',
    colon: '：',
    waitingLabel: '⏸ 等待确认',
    failedLabel: '❌ 失败原因',
    cancelledLabel: '⏹ 取消原因',
    earlierTools: (c) => `更早的 ${c} 个工具调用`,
    moreEarlierTools: (c) => `… 另有 ${c} 个更早的调用未显示`,
    truncated: (shown, total, cards) =>
      cards > 0
        ? `⚠️ 回答较长：此卡片显示前 ${n(shown, 'zh-CN')} 字（共 ${n(total, 'zh-CN')} 字），其余内容见下方 ${cards} 条续接卡片。`
        : `⚠️ 回答过长，已截断：此卡片只显示前 ${n(shown, 'zh-CN')} 字（共 ${n(total, 'zh-CN')} 字）。`,
    truncatedRunning: (shown, total) => `⚠️ 回答较长：目前显示前 ${n(shown, 'zh-CN')} 字（共 ${n(total, 'zh-CN')} 字），完成后其余内容将以续接卡片发送。`,
    continuation: (part) => `（续 · 第 ${part} 部分）`,
    continuationCut: (rest) => `⚠️ 回答过长，其余 ${n(rest, 'zh-CN')} 字未能发送。`,
  },
  en: {
    defaultTitle: DEFAULT_TITLES.en,
    status: STATUS_LABELS.en,
    round: (r) => `round ${r}`,
    separator: ' · ',
    tools: TOOL_CALLS_HEADINGS.en,
    thinking: 'Thinking',
    thinkingNow: '⏳ Thinking…',
    noAnswer: '(no answer)',
    colon: ': ',
    waitingLabel: '⏸ Waiting for',
    failedLabel: '❌ Error',
    cancelledLabel: '⏹ Cancelled',
    earlierTools: (c) => `${c} earlier tool call${c === 1 ? '' : 's'}`,
    moreEarlierTools: (c) => `… ${c} more earlier call${c === 1 ? '' : 's'} not shown`,
    truncated: (shown, total, cards) =>
      cards > 0
        ? `⚠️ Long answer: this card shows the first ${n(shown, 'en')} of ${n(total, 'en')} characters; the rest continues in the ${cards} card${cards === 1 ? '' : 's'} below.`
        : `⚠️ Answer shortened: this card shows only the first ${n(shown, 'en')} of ${n(total, 'en')} characters.`,
    truncatedRunning: (shown, total) =>
      `⚠️ Long answer: showing the first ${n(shown, 'en')} of ${n(total, 'en')} characters so far; the rest follows in continuation cards when the run ends.`,
    continuation: (part) => `(continued, part ${part})`,
    continuationCut: (rest) => `⚠️ Answer too long: the remaining ${n(rest, 'en')} characters could not be sent.`,
  },
};

/** Header colour per status: running blue, waiting orange, completed green, failed red, cancelled grey. */
export const STATUS_TEMPLATE: Readonly<Record<CardStatus, FeishuTemplate>> = {
  running: 'blue',
  waiting: 'orange',
  completed: 'green',
  failed: 'red',
  cancelled: 'grey',
};

/** Subtitle: `运行中 · 第 3 轮` / `Running · round 3` while running, the status word otherwise. */
export function statusLine(status: CardStatus, round: number, texts: CardTexts): string {
  if (status === 'running' && round > 0) return `${texts.status.running}${texts.separator}${texts.round(round)}`;
  return texts.status[status];
}
