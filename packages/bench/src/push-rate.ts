/**
 * `npm run bench:core` (after the core's own figures): `ProgressCard.push` end to end with the real
 * Feishu plugin's renderer, budget keys (route, chat, message) and channel defaults, beside the
 * no-op renderer the core bench uses. Both send through a transport that accepts at once, so the
 * figure is this process's CPU: events per CPU second (user + system), with renders per event and
 * wall-clock events/s beside it. Prints figures; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { createProgressCards, silentLogger, type CardRenderer, type ChannelPlugin } from '@progresscard/core';
import { feishu } from '@progresscard/plugin-feishu';
import { runShapedScript as script } from '@progresscard/core/testing';

/** `plugin` with a transport that accepts every call at once, counting renders. */
function acceptingAll(plugin: ChannelPlugin, renders: { count: number }): ChannelPlugin {
  let n = 0;
  const renderer: CardRenderer<unknown> = {
    render: (view) => {
      renders.count++;
      return plugin.renderer.render(view);
    },
    renderFallback: (view) => {
      renders.count++;
      return plugin.renderer.renderFallback(view);
    },
  };
  return {
    ...plugin,
    renderer,
    transport: { send: async () => ({ id: `m${n++}`, extra: { chat: 'oc_bench' } }), update: async () => {}, classify: () => ({ kind: 'transient', detail: '' }) },
  };
}

const noop: ChannelPlugin<string> = {
  id: 'noop',
  configSchema: undefined as never,
  defaults: { tickMs: 3000, budget: [{ limit: 1_000_000, intervalMs: 1000 }], perCardIntervalMs: 0, debounceMs: 2500 },
  renderer: { render: () => 'x', renderFallback: () => 'x' },
  transport: { send: async () => ({ id: 'm' }), update: async () => {}, classify: () => ({ kind: 'transient', detail: '' }) },
};

/** Pushes 100 runs at a time, one chat per 10 runs, for about `ms` of wall time; prints the rates. */
async function pushRate(label: string, plugin: ChannelPlugin, ms = 3000): Promise<void> {
  const renders = { count: 0 };
  const channel = acceptingAll(plugin, renders);
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const runs = Array.from({ length: 100 }, (_, i) => script(i));
  let events = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let batch = 0;
  while (performance.now() - start < ms) {
    for (const [i, run] of runs.entries()) {
      const card = cards.open(channel.id, { receiveId: `oc_chat${batch}_${Math.floor(i / 10)}` });
      for (const event of run) {
        card.push(event);
        events += 1;
      }
    }
    batch++;
    await cards.idle();
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await cards.shutdown();
  const rate = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(
    `ProgressCard.push end to end, ${label}: ${rate(events / cpuSeconds)} events per CPU second (${rate(events / seconds)} events/s wall, ${(renders.count / events).toFixed(2)} renders per event, ${events.toLocaleString('en-US')} events)`,
  );
}

await pushRate('no-op renderer, one budget key, no per-card interval', noop);
await pushRate('Feishu renderer, budget keys and defaults (250 ms per card, 5/s per chat and message)', feishu({ appId: 'cli_bench', appSecret: 'bench-secret', receiveId: 'oc_default' }) as ChannelPlugin);
