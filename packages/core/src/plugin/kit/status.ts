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
