import type { Design, PointResult } from './run-point.js';
import type { SeededResult, Spread } from './seeds.js';

/** Milliseconds as the tables show them: `1.23 s`, `42 s`, `never` for infinity (a change never reached the chat), `–` for NaN. */
export const seconds = (ms: number) =>
  ms === Number.POSITIVE_INFINITY ? 'never' : Number.isFinite(ms) ? (ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`) : '–';
const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : '–');
const ratio = (x: number) => (x === Number.POSITIVE_INFINITY ? '∞' : Number.isFinite(x) ? x.toFixed(2) : '–');

/** The rejections of a point, e.g. `230020×3 99991400×1`, or `0`. */
function rejections(result: PointResult): string {
  const entries = Object.entries(result.rejections);
  return entries.length === 0 ? '0' : entries.map(([code, count]) => `${code}×${count}`).join(' ');
}

/** Column order and labels of the designs. */
const DESIGN_ORDER: Record<Design, number> = { progresscard: 0, 'p-throttle': 1, naive: 2 };
const DESIGN_LABEL: Record<Design, string> = { progresscard: 'pc', 'p-throttle': 'p-throttle', naive: 'naive' };

/** `0.31 s (0.28–0.40)` over seeds, or the median alone when one seed. */
function withSpread(median: number, spread: Spread | undefined, format: (x: number) => string): string {
  // NaN (a seed without that figure) has no spread to show.
  if (!spread || spread.min === spread.max || Number.isNaN(spread.min) || Number.isNaN(spread.max)) return format(median);
  return `${format(median)} (${format(spread.min)}–${format(spread.max)})`;
}

/**
 * One Markdown table per channel and workload: rows are figures, columns N × design. Each figure is
 * the median seed's; the rows marked "over seeds" show the lowest and highest in parentheses.
 */
export function markdownTables(results: readonly SeededResult[]): string {
  const out: string[] = [];
  const groups = new Map<string, SeededResult[]>();
  for (const result of results) {
    const key = `${result.channel} · ${result.workload}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  for (const [title, group] of groups) {
    const columns = [...group].sort((a, b) => a.n - b.n || a.apps - b.apps || DESIGN_ORDER[a.design] - DESIGN_ORDER[b.design]);
    const seeds = columns[0]?.seeds ?? [];
    out.push(`#### ${title}`, '');
    if (seeds.length > 1) out.push(`Median over seeds ${seeds.join(', ')}; (lowest–highest) where they differ.`, '');
    out.push(`| | ${columns.map((c) => `N = ${c.n}${c.apps > 1 ? ` × ${c.apps} apps` : ''} ${DESIGN_LABEL[c.design]}`).join(' | ')} |`);
    out.push(`|---|${columns.map(() => '---').join('|')}|`);
    const row = (label: string, cell: (c: SeededResult) => string) => out.push(`| ${label} | ${columns.map(cell).join(' | ')} |`);
    if (columns.some((c) => c.apps > 1)) row("apps (busiest app's runs ÷ mean)", (c) => (c.busiestAppShare === undefined ? String(c.apps) : `${c.apps} (${c.busiestAppShare.toFixed(2)})`));
    row('calls', (c) => String(c.calls));
    row('rejections', (c) => (c.spread.rejections.max !== c.spread.rejections.min ? `${rejections(c)} (${c.spread.rejections.min}–${c.spread.rejections.max})` : rejections(c)));
    row('tool staleness p50 / p99', (c) => `${seconds(c.staleness.tool.p50)} / ${withSpread(c.staleness.tool.p99, c.spread.toolP99, seconds)}`);
    row('tool staleness on cards already shown p50 / p99', (c) => (c.staleness.toolOnShownCard ? `${seconds(c.staleness.toolOnShownCard.p50)} / ${seconds(c.staleness.toolOnShownCard.p99)}` : '–'));
    row('first card p50 / p99', (c) => `${seconds(c.staleness.firstCard.p50)} / ${withSpread(c.staleness.firstCard.p99, c.spread.firstCardP99, seconds)}`);
    row('answer text p50 / p99', (c) => `${seconds(c.staleness.answer.p50)} / ${seconds(c.staleness.answer.p99)}`);
    row('bound (cards with an unshown change)', (c) => seconds(c.boundMs));
    row('tool / first-card p99 ÷ bound', (c) => `${ratio(c.ratioToBound.tool)} / ${ratio(c.ratioToBound.firstCard)}`);
    if (columns.some((c) => c.appBoundMs !== undefined)) {
      row("bound per app (each change against its own app's unshown cards)", (c) => (c.appBoundMs === undefined ? '–' : seconds(c.appBoundMs)));
      row('tool / first-card p99 ÷ bound per app', (c) => (c.ratioToAppBound ? `${ratio(c.ratioToAppBound.tool)} / ${ratio(c.ratioToAppBound.firstCard)}` : '–'));
    }
    row("bound (product's pendingCards)", (c) => seconds(c.productBoundMs));
    row("tool / first-card p99 ÷ product's bound", (c) => `${ratio(c.ratioToProductBound.tool)} / ${ratio(c.ratioToProductBound.firstCard)}`);
    row('budget used while a change waits', (c) => pct(c.budgetUsedWhileWaiting));
    row('budget used while at budget', (c) => pct(c.budgetUsedAtBudget));
    row('final p50 / p99', (c) => `${seconds(c.final.p50)} / ${withSpread(c.final.p99, c.spread.finalP99, seconds)}`);
    row('finals of runs that ended before their first card showed: count, p99', (c) => `${c.finalsBeforeFirstCard.count}, ${seconds(c.finalsBeforeFirstCard.p99)}`);
    if (columns.some((c) => c.floors)) row('first card / final p99 floor (send route; Slack streams: start/stop)', (c) => (c.floors ? `${seconds(c.floors.firstCardMs)} / ${seconds(c.floors.finalMs)}` : '–'));
    row('finals missing', (c) => String(c.finalsMissing));
    row('CPU, RSS', (c) => `${(c.cpuMs / 1000).toFixed(1)} s, ${c.rssMb} MB`);
    if (columns.some((c) => c.eventLoopDelayMs)) {
      const ms = (x: number) => `${x.toFixed(0)} ms`;
      row('event-loop delay p50 / p99 / max', (c) => (c.eventLoopDelayMs ? `${ms(c.eventLoopDelayMs.p50)} / ${ms(c.eventLoopDelayMs.p99)} / ${ms(c.eventLoopDelayMs.max)}` : '–'));
      row('load average (1 min), transport', (c) => `${c.loadAverage?.toFixed(1) ?? '–'}, ${c.transport ?? '–'}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** A hand-written SVG: tool staleness p99 against N (both log scales), one line per design and channel. */
export function stalenessPlot(results: readonly PointResult[], workload: string, caption = ''): string {
  const width = 640;
  const height = 400;
  const margin = { left: 70, right: 170, top: 30, bottom: 50 };
  const plotted = results.filter((r) => r.workload === workload && !Number.isNaN(r.staleness.tool.p99));
  const ns = [...new Set(plotted.map((r) => r.n))].sort((a, b) => a - b);
  const ys = plotted.map((r) => Math.max(10, r.staleness.tool.p99)).filter(Number.isFinite);
  const logMin = Math.floor(Math.log10(Math.min(...ys, 100)));
  // One decade above the data: "never" (some changes were never shown) is drawn on the top line.
  const logMax = Math.ceil(Math.log10(Math.max(...ys, 1000))) + 1;
  const nMax = Math.max(...ns, 10);
  const x = (n: number) => margin.left + (Math.log10(n) / Math.log10(nMax)) * (width - margin.left - margin.right);
  const y = (ms: number) =>
    height - margin.bottom - ((Math.min(logMax, Math.log10(Math.max(10, ms))) - logMin) / (logMax - logMin)) * (height - margin.top - margin.bottom);
  const colors: Record<string, string> = { 'p-throttle feishu': '#7f7f7f', 'p-throttle dingtalk': '#aec7e8', 'progresscard feishu': '#1f77b4', 'progresscard dingtalk': '#2ca02c', 'naive feishu': '#d62728', 'naive dingtalk': '#ff7f0e', 'progresscard telegram-private': '#9467bd', 'progresscard telegram-group': '#8c564b', 'progresscard discord': '#17becf', 'progresscard discord-shifting': '#bcbd22' };
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${margin.left}" y="18" font-size="14">Tool staleness p99 vs concurrent runs (${workload}, simulated time)</text>`,
  ];
  // The caption (machine; date; seeds) one part a line, under the legend.
  const captionLines = caption ? caption.split('; ') : [];
  for (const [index, line] of captionLines.entries()) {
    const text = line.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    parts.push(`<text x="${width - margin.right + 15}" y="${height - margin.bottom - 12 * (captionLines.length - 1 - index)}" font-size="10" fill="#666">${text}</text>`);
  }
  for (let e = logMin; e <= logMax; e++) {
    const yy = y(10 ** e);
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${yy}" y2="${yy}" stroke="#ddd"/>`);
    const label = e === logMax ? 'never' : 10 ** e >= 1000 ? `${10 ** e / 1000} s` : `${10 ** e} ms`;
    parts.push(`<text x="${margin.left - 8}" y="${yy + 4}" text-anchor="end">${label}</text>`);
  }
  for (const n of ns) {
    parts.push(`<line x1="${x(n)}" x2="${x(n)}" y1="${margin.top}" y2="${height - margin.bottom}" stroke="#eee"/>`);
    parts.push(`<text x="${x(n)}" y="${height - margin.bottom + 18}" text-anchor="middle">${n}</text>`);
  }
  parts.push(`<text x="${(margin.left + width - margin.right) / 2}" y="${height - 10}" text-anchor="middle">N (concurrent runs, one app)</text>`);
  let legend = 0;
  for (const [series, color] of Object.entries(colors)) {
    const [design, channel] = series.split(' ');
    const points = plotted.filter((r) => r.design === design && r.channel === channel).sort((a, b) => a.n - b.n);
    if (points.length === 0) continue;
    const dash = design === 'naive' ? ' stroke-dasharray="6 4"' : design === 'p-throttle' ? ' stroke-dasharray="2 3"' : '';
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${points.map((p) => `${x(p.n).toFixed(1)},${y(p.staleness.tool.p99).toFixed(1)}`).join(' ')}"/>`);
    for (const p of points) parts.push(`<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.staleness.tool.p99).toFixed(1)}" r="3" fill="${color}"/>`);
    const ly = margin.top + 10 + 20 * legend++;
    parts.push(`<line x1="${width - margin.right + 15}" x2="${width - margin.right + 45}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${width - margin.right + 50}" y="${ly + 4}">${design} · ${channel}</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}
