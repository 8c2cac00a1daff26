/**
 * Render benchmark: milliseconds per render of one terminal card with a long answer (card plus its
 * continuation parts, as the dispatcher asks at every attempt), per channel plugin, at 10k, 100k and
 * 500k characters of prose and of tables. Run with `npm run bench:render`. Prints figures; asserts nothing.
 * Goal: the cost grows linearly with the answer (or less), so a long final never blocks the event loop.
 *
 * Then a table, channel × input kind, of the longest single block of the event loop (one event
 * applied, one view, one render, one continuation render: each is synchronous) for 10 MB inputs: a
 * final answer of prose, of markdown tables, of code blocks or of CJK text, one answer delta, a tool
 * argument and result, and 5 000 tool calls; each with "ok" when within the bound (50 ms, issue 30)
 * or "OVER". The card caps what it holds (see the core's card limits) and the renderers convert only
 * the answer their messages can show, so these stay near the cost of the capped size. A busy machine
 * makes steps look longer than they are: each cell is the best of five runs (the steps are
 * deterministic; only the machine's noise varies), each step the smaller of its wall and CPU time,
 * and the load average is printed with the table.
 * `npm run bench:render -- <channel>` runs one channel; `--no-scaling` skips the first part;
 * `RUNS=<n>` sets the runs per cell and `INPUTS=<name>,<name>` picks columns (e.g. `INPUTS='nested list,brackets'`).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { CardState, type AgentEvent, type CardRenderer, type CardView } from '@progresscard/core';
import { RENDERERS } from '../support/renderers.js';

const SIZES = [10_000, 100_000, 500_000];
const UNITS = { prose: 'word ', tables: '| a | b |\n|---|---|\n| 1 | 2 |\n\n' } as const;


function terminalView(chars: number, unit: string): CardView {
  const now = 1_700_000_000_000;
  const state = new CardState({ startedAt: now, locale: 'en' });
  state.apply({ type: 'run.started', title: 'bench' }, now);
  state.apply({ type: 'answer.delta', text: unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars) }, now);
  state.apply({ type: 'run.completed' }, now);
  return state.view(now);
}

/** Milliseconds of one render + renderContinuations, the median of `rounds` after a warm-up. */
function msPerRender(make: () => CardRenderer<unknown>, view: CardView, rounds: number): number {
  const once = (): number => {
    const renderer = make();
    const start = performance.now();
    renderer.render({ ...view });
    renderer.renderContinuations?.({ ...view });
    return performance.now() - start;
  };
  once();
  const times = Array.from({ length: rounds }, once).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const args = process.argv.slice(2);
const only = args.find((arg) => !arg.startsWith('--'));
if (only !== undefined && !(only in RENDERERS)) throw new Error(`bench:render: unknown channel "${only}" (one of ${Object.keys(RENDERERS).join(', ')})`);
for (const [kind, unit] of args.includes('--no-scaling') ? [] : Object.entries(UNITS)) {
  for (const [name, make] of Object.entries(RENDERERS)) {
    if (only !== undefined && only !== name) continue;
    const figures = SIZES.map((chars) => {
      const view = terminalView(chars, unit);
      const rounds = chars >= 500_000 ? 3 : 5;
      return `${(chars / 1000).toFixed(0)}k: ${msPerRender(make, view, rounds).toFixed(1)} ms`;
    });
    console.log(`${name.padEnd(8)} ${kind.padEnd(6)} ${figures.join('  ')}`);
  }
}

const TEN_MB = 10_000_000;
/** The bound on one synchronous step, in milliseconds (issue 30 item 4). */
const BOUND_MS = 50;
/** 10 MB of `unit` repeated, flattened (as a parsed JSON string arrives). */
const huge = (unit: string): string => {
  const text = unit.repeat(Math.ceil(TEN_MB / unit.length)).slice(0, TEN_MB);
  text.charCodeAt(TEN_MB - 1);
  return JSON.parse(JSON.stringify(text)) as string;
};
/** 5 000 tool calls, each with a 2 KB argument and result: the card keeps the latest and counts the rest. */
function manyToolCalls(): AgentEvent[] {
  const events: AgentEvent[] = [];
  const body = 'x'.repeat(2_000);
  for (let i = 0; i < 5_000; i++) {
    events.push({ type: 'tool.started', callId: `c${i}`, name: i % 2 === 0 ? 'Read' : 'Bash', args: { file_path: `/src/file-${i}.ts`, command: body } });
    events.push({ type: 'tool.finished', callId: `c${i}`, summary: `read ${i} ${body}` });
  }
  events.push({ type: 'run.completed', answer: 'done' });
  return events;
}
/** 10 MB of "- item" lines, each indented one level deeper than the last, up to 2 000 levels, then again. */
function nestedList(): string {
  const lines: string[] = [];
  let length = 0;
  for (let depth = 0; length < TEN_MB; depth++) {
    const line = `${'  '.repeat(depth % 2_000)}- item\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('').slice(0, TEN_MB);
}
/** One column per kind of input: the events that feed it to a card. */
const HUGE_INPUTS: Record<string, () => AgentEvent[]> = {
  plain: () => [{ type: 'run.completed', answer: huge('answer ') }],
  tables: () => [{ type: 'run.completed', answer: huge(UNITS.tables) }],
  'big table': () => [{ type: 'run.completed', answer: huge(`| name | value | note |\n|---|--:|:-:|\n${'| alpha | 12345 | a <b>note</b> |\n'.repeat(5_000)}\n`) }],
  code: () => [{ type: 'run.completed', answer: huge('```ts\nconst x = 1; // <b>&amp;</b> *a* _b_\n```\n') }],
  CJK: () => [{ type: 'run.completed', answer: huge('中文回答，表情😀。\n') }],
  delta: () => [{ type: 'answer.delta', text: huge('delta ') }, { type: 'run.completed' }],
  'tool args': () => [
    { type: 'tool.started', callId: 'c1', name: 'Write', args: { file_path: '/tmp/big.txt', content: huge('file ') } },
    { type: 'tool.started', callId: 'c2', name: 'Bash', args: huge('{"command":"cat ') },
    { type: 'run.completed', answer: 'done' },
  ],
  'tool output': () => [
    { type: 'tool.started', callId: 'c1', name: 'Read', args: { file_path: '/tmp/big.txt' } },
    { type: 'tool.finished', callId: 'c1', summary: huge('written ') },
    { type: 'run.failed', error: huge('error ') },
  ],
  'many tools': manyToolCalls,
  // Hostile markdown (issue 30 item 4): lists nested up to 2 000 levels, "`a", "[" and "[a](http://x" repeated (never closed).
  'nested list': () => [{ type: 'run.completed', answer: nestedList() }],
  backticks: () => [{ type: 'run.completed', answer: huge('`a') }],
  brackets: () => [{ type: 'run.completed', answer: huge('[') }],
  // Link destinations never closed: every `](` once read the rest of the text (quadratic).
  'unclosed links': () => [{ type: 'run.completed', answer: huge('[a](http://x') }],
};

/**
 * The longest synchronous step of feeding `events` to a card and rendering it on `make`'s channel
 * (milliseconds), and which step it was. A step's cost is the smaller of its wall time and the CPU
 * time the process spent in it: each is at least what the step takes on an idle core (a busy
 * machine adds the wait for a core to the one, work of other threads and contention to the other).
 * The card is rendered after every event, as a dispatcher with nothing to coalesce would (with many
 * events, after every 50th and the last: a dispatcher renders at most once a tick).
 */
function longestBlock(make: () => CardRenderer<unknown>, events: readonly AgentEvent[]): { ms: number; step: string } {
  const now = 1_700_000_000_000;
  let longest = { ms: 0, step: '' };
  const step = <T>(name: string, run: () => T): T => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = run();
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const ms = Math.min(wall, (used.user + used.system) / 1000);
    if (ms > longest.ms) longest = { ms, step: name };
    return result;
  };
  const state = new CardState({ startedAt: now, locale: 'en' });
  state.apply({ type: 'run.started', title: 'bench' }, now);
  const renderer = make();
  const every = events.length > 100 ? 50 : 1;
  events.forEach((event, i) => {
    step('event', () => state.apply(event, now));
    if (i % every !== 0 && i !== events.length - 1) return;
    const view = step('view', () => state.view(now));
    step('render', () => renderer.render({ ...view }));
  });
  const view = step('view', () => state.view(now));
  step('continuations', () => renderer.renderContinuations?.({ ...view }));
  return longest;
}

const RUNS = Number(process.env.RUNS ?? 5);
/** `INPUTS=backticks,brackets` runs only those columns. */
const picked = (process.env.INPUTS ?? '').split(',').filter((name) => name !== '');
const inputs = Object.entries(HUGE_INPUTS)
  .filter(([name]) => picked.length === 0 || picked.includes(name))
  .map(([name, events]) => ({ name, events: events() }));
const width = Math.max(...inputs.map((input) => input.name.length), 10);
console.log(`\nlongest event-loop block (ms) for 10 MB inputs: one event, view, render or continuation render; best of ${RUNS}. Bound: ${BOUND_MS} ms. Load average: ${loadavg()[0]!.toFixed(1)}`);
console.log(['channel '.padEnd(9), ...inputs.map((input) => input.name.padStart(width))].join(' '));
const over: string[] = [];
for (const [channel, make] of Object.entries(RENDERERS)) {
  if (only !== undefined && only !== channel) continue;
  const cells = inputs.map(({ name, events }) => {
    longestBlock(make, events);
    const best = Array.from({ length: RUNS }, () => longestBlock(make, events)).sort((a, b) => a.ms - b.ms)[0]!;
    if (best.ms > BOUND_MS) over.push(`${channel} ${name}: ${best.ms.toFixed(1)} ms (${best.step})`);
    return `${best.ms.toFixed(1)} ${best.ms > BOUND_MS ? 'OVER' : 'ok'}`.padStart(width);
  });
  console.log([channel.padEnd(9), ...cells].join(' '));
}
console.log(over.length === 0 ? `\nevery channel within ${BOUND_MS} ms` : `\nover the bound (longest step):\n  ${over.join('\n  ')}`);
