import { formatDuration } from '../../card/format/duration.js';
import type { CardView, Locale } from '../../card/view.js';

/**
 * The header of the card's reasoning section: `💭 Thinking… 12s` / `💭 思考中… 12 秒` while the agent
 * thinks, `💭 Thought for 12s` / `💭 思考了 12 秒` after, `💭 Thinking` / `💭 思考过程` when it took
 * under a second (or the source gave no times).
 */
export function thinkingHeading(view: Pick<CardView, 'thinkingMs' | 'thinkingNow'>, locale: Locale): string {
  const ms = view.thinkingMs ?? 0;
  const zh = locale === 'zh-CN';
  if (view.thinkingNow) return ms >= 1000 ? `💭 ${zh ? '思考中…' : 'Thinking…'} ${formatDuration(ms, locale)}` : `💭 ${zh ? '思考中…' : 'Thinking…'}`;
  if (ms < 1000) return `💭 ${zh ? '思考过程' : 'Thinking'}`;
  return zh ? `💭 思考了 ${formatDuration(ms, locale)}` : `💭 Thought for ${formatDuration(ms, locale)}`;
}

/**
 * True when the reasoning should show open: the agent is thinking now, or still running with no
 * answer yet. Otherwise renderers fold it (Feishu `collapsible_panel` folded) or show only its header.
 */
export function reasoningOpen(view: Pick<CardView, 'thinkingNow' | 'answer' | 'status'>): boolean {
  return view.thinkingNow === true || (view.answer.trim() === '' && (view.status === 'running' || view.status === 'waiting'));
}
