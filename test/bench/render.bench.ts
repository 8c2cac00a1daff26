/**
 * Render benchmark: milliseconds per render of one terminal card with a long answer (card plus its
 * continuation parts, as the dispatcher asks at every attempt), per channel plugin, at 10k, 100k and
 * 500k characters of prose and of tables. Run with `npm run bench:render`. Prints figures; asserts nothing.
 * Goal: the cost grows linearly with the answer (or less), so a long final never blocks the event loop.
 */
import { performance } from 'node:perf_hooks';
import { CardState, type CardRenderer, type CardView } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';

const SIZES = [10_000, 100_000, 500_000];
const UNITS = { prose: 'word ', tables: '| a | b |\n|---|---|\n| 1 | 2 |\n\n' } as const;

/** A fresh renderer per plugin (renderers reuse the layout of the same view, so each round gets a new view). */
const RENDERERS: Record<string, () => CardRenderer<unknown>> = {
  feishu: () => feishu({ appId: 'cli_bench', appSecret: 'bench', receiveId: 'oc_bench' }).renderer as CardRenderer<unknown>,
  dingtalk: () =>
    dingtalk({ appKey: 'bench', appSecret: 'bench', cardTemplateId: 'bench.schema', target: { type: 'group', openConversationId: 'cidBench==' } }).renderer as CardRenderer<unknown>,
  slack: () => slack({ botToken: 'xoxb-bench', channel: 'C0BENCH' }).renderer as CardRenderer<unknown>,
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
