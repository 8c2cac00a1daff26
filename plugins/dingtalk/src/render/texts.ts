import { DEFAULT_TITLES, formatCount, STATUS_LABELS, TOOL_CALLS_HEADINGS, type CardStatus, type Locale } from '@progresscard/core/plugin';

/** The words the DingTalk card uses around the agent's text, per locale. */
export interface CardTexts {
  /** The shared status words (`STATUS_LABELS` of the core). */
  readonly status: Readonly<Record<CardStatus, string>>;
  readonly defaultTitle: string;
  readonly round: (n: number) => string;
  readonly waitingFor: string;
  readonly error: string;
  readonly reason: string;
  readonly thinking: string;
  readonly tools: string;
  readonly moreTools: (hidden: number) => string;
  readonly shortened: (shown: number, total: number) => string;
  /** Notice under an answer that continues in follow-up messages. */
  readonly continuedBelow: (parts: number) => string;
  /** Title suffix of follow-up message `part` (2..n) of `total`. */
  readonly continuationTitle: (part: number, total: number) => string;
}

/** Status marks: emoji, because card markdown takes colour tokens but no hex colours. */
export const STATUS_ICONS: Readonly<Record<CardStatus, string>> = {
  running: '⏳',
  waiting: '⏸️',
  completed: '✅',
  failed: '❌',
  cancelled: '⏹️',
};

/**
 * Colour tokens of the status line (markdown-variable-new: `<font colorTokenV2=…>`, unquoted, tokens only).
 */
export const STATUS_COLOR_TOKENS: Readonly<Record<CardStatus, string>> = {
  running: 'common_blue1_color',
  waiting: 'common_orange1_color',
  completed: 'common_green1_color',
  failed: 'common_red1_color',
  cancelled: 'common_gray3_color',
};

/** zh-CN and en texts. */
export const CARD_TEXTS: Readonly<Record<Locale, CardTexts>> = {
  'zh-CN': {
    status: STATUS_LABELS['zh-CN'],
    defaultTitle: DEFAULT_TITLES['zh-CN'],
    round: (n) => `第 ${n} 轮`,
    waitingFor: '等待',
    error: '错误',
    reason: '原因',
    thinking: '思考',
    tools: TOOL_CALLS_HEADINGS['zh-CN'],
    moreTools: (hidden) => `…另有 ${hidden} 个较早的工具调用`,
    shortened: (shown, total) => `（内容过长，已截断：显示前 ${formatCount(shown, 'zh-CN')} / ${formatCount(total, 'zh-CN')} 字）`,
    continuedBelow: (parts) => `（内容较长，余下部分见后续 ${parts} 条消息）`,
    continuationTitle: (part, total) => `（续 ${part}/${total}）`,
  },
  en: {
    status: STATUS_LABELS.en,
    defaultTitle: DEFAULT_TITLES.en,
    round: (n) => `round ${n}`,
    waitingFor: 'Waiting for',
    error: 'Error',
    reason: 'Reason',
    thinking: 'Thinking',
    tools: TOOL_CALLS_HEADINGS.en,
    moreTools: (hidden) => `…and ${hidden} earlier tool call${hidden === 1 ? '' : 's'}`,
    shortened: (shown, total) => `(shortened: showing the first ${formatCount(shown, 'en')} of ${formatCount(total, 'en')} characters)`,
    continuedBelow: (parts) => `(continued in ${parts} follow-up message${parts === 1 ? '' : 's'})`,
    continuationTitle: (part, total) => ` (${part}/${total})`,
  },
};
