import type { CardStatus, Locale } from '../../card/view.js';

/**
 * The status words every channel shows (card header, status line, chat-list preview), in zh-CN and
 * en. One vocabulary, so a run reads the same in Feishu, DingTalk and the memory channel.
 */
export const STATUS_LABELS: Readonly<Record<Locale, Readonly<Record<CardStatus, string>>>> = {
  'zh-CN': { running: '运行中', waiting: '等待输入', completed: '已完成', failed: '失败', cancelled: '已取消' },
  en: { running: 'Running', waiting: 'Waiting for input', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' },
};

/** The word for `status` in `locale`, e.g. `statusLabel('completed', 'zh-CN')` → `已完成`. */
export function statusLabel(status: CardStatus, locale: Locale): string {
  return STATUS_LABELS[locale][status];
}

/**
 * The title of a run that has none (no prompt in the trace, no `title` given), the same on every
 * channel, so one run reads alike in Feishu and DingTalk.
 */
export const DEFAULT_TITLES: Readonly<Record<Locale, string>> = { 'zh-CN': '智能体任务', en: 'Agent run' };

/**
 * The heading over a card's tool lines. They list the whole run's calls (not one round's), so the
 * words say "tool calls", never "this round's tools".
 */
export const TOOL_CALLS_HEADINGS: Readonly<Record<Locale, string>> = { 'zh-CN': '工具调用', en: 'Tool calls' };

/** Words a card shows besides its status, the same on every text-based channel. */
export interface CardWords {
  /** `第 2 轮` / `round 2`. */
  readonly round: (n: number) => string;
  /** The tool lines' heading with their count: `工具调用 · 12` / `Tool calls · 12`. */
  readonly tools: (n: number) => string;
  /** The line that stands for folded older calls. */
  readonly olderTools: (n: number) => string;
  /** The reasoning section's heading. */
  readonly thinking: string;
  /** Before an open question's prompt. */
  readonly waitingFor: string;
  /** A question nobody answered in time. */
  readonly timedOut: string;
  /** The button that opens a typed reply. */
  readonly reply: string;
}

/** {@link CardWords} per locale: a plugin spreads them into its own texts and adds its platform's. */
export const CARD_WORDS: Readonly<Record<Locale, CardWords>> = {
  'zh-CN': {
    round: (n) => `第 ${n} 轮`,
    tools: (n) => `${TOOL_CALLS_HEADINGS['zh-CN']} · ${n}`,
    olderTools: (n) => `…另有 ${n} 个较早的工具调用`,
    thinking: '思考',
    waitingFor: STATUS_LABELS['zh-CN'].waiting,
    timedOut: '超时未处理',
    reply: '回复',
  },
  en: {
    round: (n) => `round ${n}`,
    tools: (n) => `${TOOL_CALLS_HEADINGS.en} · ${n}`,
    olderTools: (n) => `…and ${n} earlier tool calls`,
    thinking: 'Thinking',
    waitingFor: 'Waiting for',
    timedOut: 'timed out',
    reply: 'Reply',
  },
};
