/**
 * Render benchmark: milliseconds per render of one terminal card with a long answer (card plus its
 * continuation parts, as the dispatcher asks at every attempt), per channel plugin, at 10k, 100k and
 * 500k characters of prose and of tables. Run with `npm run bench:render`. Prints figures; asserts nothing.
 * Goal: the cost grows linearly with the answer (or less), so a long final never blocks the event loop.
 *
 * Then, per channel, the longest single block of the event loop (one event applied, one view, one
 * render, one continuation render: each is synchronous) for 10 MB inputs: a final answer, one answer
 * delta, a tool argument and result. The card caps what it holds (see the core's card limits), so
 * these stay near the cost of the capped size. Goal: about 50 ms on an idle machine.
 */
import { performance } from 'node:perf_hooks';
import { CardState, type AgentEvent, type CardRenderer, type CardView } from '@progresscard/core';
import { DEFAULT_DISCORD_APP, DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { telegram } from '@progresscard/plugin-telegram';
import { discord } from '@progresscard/plugin-discord';

const SIZES = [10_000, 100_000, 500_000];
const UNITS = { prose: 'word ', tables: '| a | b |\n|---|---|\n| 1 | 2 |\n\n' } as const;

/** A fresh renderer per plugin (renderers reuse the layout of the same view, so each round gets a new view). */
const RENDERERS: Record<string, () => CardRenderer<unknown>> = {
  feishu: () => feishu({ appId: 'cli_bench', appSecret: 'bench', receiveId: 'oc_bench' }).renderer as CardRenderer<unknown>,
  dingtalk: () =>
    dingtalk({ appKey: 'bench', appSecret: 'bench', cardTemplateId: 'bench.schema', target: { type: 'group', openConversationId: 'cidBench==' } }).renderer as CardRenderer<unknown>,
  slack: () => slack({ botToken: 'xoxb-bench', channel: 'C0BENCH' }).renderer as CardRenderer<unknown>,
  telegram: () => telegram({ botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: DEFAULT_TELEGRAM_BOT.privateChat }).renderer as CardRenderer<unknown>,
  discord: () => discord({ botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel }).renderer as CardRenderer<unknown>,
};

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

const only = process.argv[2];
for (const [kind, unit] of Object.entries(UNITS)) {
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
/** 10 MB of prose, flattened (as a parsed JSON string arrives). */
const huge = (seed: string): string => {
  const text = `${seed} `.repeat(Math.ceil(TEN_MB / (seed.length + 1))).slice(0, TEN_MB);
  text.charCodeAt(TEN_MB - 1);
  return JSON.parse(JSON.stringify(text)) as string;
};
const HUGE_INPUTS: Record<string, () => AgentEvent[]> = {
  answer: () => [{ type: 'run.completed', answer: huge('answer') }],
  delta: () => [{ type: 'answer.delta', text: huge('delta') }, { type: 'run.completed' }],
  tool: () => [
    { type: 'tool.started', callId: 'c1', name: 'Write', args: { file_path: '/tmp/big.txt', content: huge('file') } },
    { type: 'tool.finished', callId: 'c1', summary: huge('written') },
    { type: 'run.completed', answer: 'done' },
  ],
};

/** The longest synchronous step (ms) of feeding `events` to a card and rendering it on `make`'s channel. */
function longestBlock(make: () => CardRenderer<unknown>, events: readonly AgentEvent[]): number {
  const now = 1_700_000_000_000;
  let longest = 0;
  const step = <T>(run: () => T): T => {
    const start = performance.now();
    const result = run();
    longest = Math.max(longest, performance.now() - start);
    return result;
  };
  const state = new CardState({ startedAt: now, locale: 'en' });
  state.apply({ type: 'run.started', title: 'bench' }, now);
  const renderer = make();
  for (const event of events) {
    step(() => state.apply(event, now));
    const view = step(() => state.view(now));
    step(() => renderer.render({ ...view }));
  }
  const view = step(() => state.view(now));
  step(() => renderer.renderContinuations?.({ ...view }));
  return longest;
}

console.log('\nlongest event-loop block for 10 MB inputs (one event, view, render or continuation render):');
for (const [name, make] of Object.entries(RENDERERS)) {
  if (only !== undefined && only !== name) continue;
  const figures = Object.entries(HUGE_INPUTS).map(([input, events]) => {
    const list = events();
    longestBlock(make, list);
    return `${input}: ${longestBlock(make, list).toFixed(1)} ms`;
  });
  console.log(`${name.padEnd(8)} ${figures.join('  ')}`);
}
