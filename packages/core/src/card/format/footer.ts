import type { FooterFields, Locale } from '../view.js';
import { formatDuration } from './duration.js';

/**
 * `compact`: `11s · model-x · in 12.8k / out 1.1k · ctx 34% · 20:55`; `debug`: exact numbers, tool
 * count and the quota the card spent (`quota 37 of 5,000/month`, final cards of channels with a monthly quota).
 */
export type FooterStyle = 'compact' | 'debug';

/** The parts a footer can show, in the order it shows them (`tools`: the debug style's tool count; `time`: the clock time). */
export const FOOTER_FIELDS = ['duration', 'model', 'tokens', 'context', 'tools', 'time'] as const;

/** One of {@link FOOTER_FIELDS}. */
export type FooterField = (typeof FOOTER_FIELDS)[number];

/** Options of {@link formatFooter}. */
export interface FooterOptions {
  readonly style: FooterStyle;
  /**
   * Only these parts are shown (default: all the style shows; `tools` only shows with `debug` unless
   * listed here). Unknown values are left out as they were.
   */
  readonly fields?: readonly FooterField[];
  readonly locale: Locale;
  /** IANA time zone for the sent-at time; default the process's. */
  readonly timeZone?: string;
}

/** 12800 → `12.8k`, 1_250_000 → `1.3M`, 950 → `950`. */
export function formatTokenCount(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${trim(tokens / 1000)}k`;
  return `${trim(tokens / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}

/** US dollars: `$1.27` (`<$0.01` below a cent); debug: four decimals, `$1.2735`. */
export function formatCost(usd: number, exact = false): string {
  if (exact) return `$${usd.toFixed(4)}`;
  return usd > 0 && usd < 0.01 ? '<$0.01' : `$${usd.toFixed(2)}`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Epoch ms → `HH:MM` (24 h) in `timeZone`. */
export function formatClockTime(epochMs: number, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
    timeFormats.set(key, format);
  }
  return format.format(epochMs);
}

const words = {
  'zh-CN': { in: '输入', out: '输出', ctx: '上下文', tools: '工具', calls: '次', toolTally: '工具', failed: '失败', quota: (calls: string, month: string) => `配额 ${calls} / ${month} 次每月` },
  en: { in: 'in', out: 'out', ctx: 'ctx', tools: 'tools', calls: '', toolTally: 'Tools', failed: 'failed', quota: (calls: string, month: string) => `quota ${calls} of ${month}/month` },
} as const;

/**
 * The footer line: duration, model, input/output tokens, cost, context %, (debug: tool count and,
 * on a final card of a channel with a monthly quota, `quota 37 of 5,000/month`), sent-at. A final
 * card with failed tool calls says so in every style: `Tools · 164 · 23 failed` / `工具 · 164 · 23 失败`.
 * Unknown fields are left out.
 */
export function formatFooter(fields: FooterFields, options: FooterOptions): string {
  const w = words[options.locale];
  const debug = options.style === 'debug';
  const shown = new Set<FooterField>(options.fields ?? FOOTER_FIELDS.filter((field) => field !== 'tools' || debug));
  const count = debug ? (n: number) => n.toLocaleString('en-US') : formatTokenCount;
  const parts: string[] = [];
  if (shown.has('duration')) parts.push(debug ? `${fields.durationMs} ms` : formatDuration(fields.durationMs, options.locale));
  if (fields.model && shown.has('model')) parts.push(fields.model);
  const tokens: string[] = [];
  if (fields.inputTokens !== undefined) tokens.push(`${w.in} ${count(fields.inputTokens)}`);
  if (fields.outputTokens !== undefined) tokens.push(`${w.out} ${count(fields.outputTokens)}`);
  if (tokens.length > 0 && shown.has('tokens')) parts.push(tokens.join(' / '));
  if (fields.costUsd !== undefined) parts.push(formatCost(fields.costUsd, debug));
  if (fields.contextPercent !== undefined && shown.has('context')) {
    const exact = debug && fields.contextTokens !== undefined && fields.contextWindow !== undefined
      ? ` (${count(fields.contextTokens)}/${count(fields.contextWindow)})`
      : '';
    parts.push(`${w.ctx} ${fields.contextPercent}%${exact}`);
  }
  const failed = fields.failedToolCount ?? 0;
  if (shown.has('tools')) parts.push(`${w.tools} ${fields.toolCount}${w.calls ? ` ${w.calls}` : ''}${failed > 0 ? ` · ${failed} ${w.failed}` : ''}`);
  // A final card says how many calls failed: the tool lines it shows are only the latest few.
  else if (fields.final && failed > 0 && (options.fields === undefined || options.fields.includes('tools'))) parts.push(`${w.toolTally} · ${fields.toolCount} · ${failed} ${w.failed}`);
  if (debug && fields.quota) parts.push(w.quota(count(fields.quota.calls), count(fields.quota.monthlyQuota)));
  if (shown.has('time')) parts.push(formatClockTime(fields.sentAt, options.timeZone));
  return parts.join(' · ');
}
