/**
 * Core benchmark: events/s through reduce + render (no-op renderer), streamed tool arguments, and
 * memory per live card.
 * Run with `npm run bench:core`. Prints figures; asserts nothing.
 * Targets (issue 2): ≥ 100k events/s on one core, ≤ 20 KB per live card at 10k cards.
 */
import { performance } from 'node:perf_hooks';
import { CardState, createProgressCards, silentLogger, type ChannelPlugin } from '../src/index.js';
import { PriorityQueue } from '../src/delivery/schedule/priority-queue.js';
import { runShapedScript as script } from '../src/testing/index.js';

function benchReduceRender(): void {
  const noopRender = (view: unknown) => view;
  const runs = Array.from({ length: 200 }, (_, i) => script(i));
  let events = 0;
  let sink: unknown;
  // warm-up
  for (const run of runs.slice(0, 20)) {
    const s = new CardState({ startedAt: 0 });
    for (const e of run) { s.apply(e, 1); sink = noopRender(s.view(2)); }
  }
  const start = performance.now();
  let now = 1_700_000_000_000;
  while (performance.now() - start < 2000) {
    for (const run of runs) {
      const state = new CardState({ startedAt: now });
      for (const event of run) {
        state.apply(event, now++);
        sink = noopRender(state.view(now));
        events += 1;
      }
    }
  }
  const seconds = (performance.now() - start) / 1000;
  void sink;
  console.log(`reduce+render (CardState.apply + view + no-op renderer): ${Math.round(events / seconds).toLocaleString('en-US')} events/s (${events.toLocaleString('en-US')} events in ${seconds.toFixed(2)} s)`);
}

/** A channel whose transport accepts everything instantly and whose renderer returns a constant. */
function noopChannel(): ChannelPlugin<string> {
  let n = 0;
  return {
    id: 'noop',
    configSchema: undefined as never,
    defaults: { tickMs: 3000, budget: [{ limit: 1_000_000, intervalMs: 1000 }], perCardIntervalMs: 0, debounceMs: 2500 },
    renderer: { render: () => 'x', renderFallback: () => 'x' },
    transport: { send: async () => ({ id: `m${n++}` }), update: async () => {}, classify: () => ({ kind: 'transient', detail: '' }) },
  };
}

async function benchMemory(cardCount: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    console.log('memory: run with --expose-gc (npm run bench:core does)');
    return;
  }
  const cards = createProgressCards({ channels: [noopChannel()], logger: silentLogger, env: {} });
  gc();
  const before = process.memoryUsage().heapUsed;
  const live = [];
  for (let i = 0; i < cardCount; i++) {
    const card = cards.open('noop');
    // A live card mid-run: two rounds done, a tool running, some answer text.
    for (const event of script(i).slice(0, 40)) card.push(event);
    card.toolStarted('running', 'shell', '{"command":"npm run build"}');
    live.push(card);
  }
  await cards.idle();
  gc();
  const after = process.memoryUsage().heapUsed;
  const perCard = (after - before) / cardCount;
  console.log(`memory: ${cardCount.toLocaleString('en-US')} live cards (each mid-run, 1 tool running) → ${(perCard / 1024).toFixed(1)} KB per card (heap +${((after - before) / 1048576).toFixed(1)} MB)`);
  const start = performance.now();
  for (const card of live) card.complete();
  await cards.idle();
  console.log(`completing ${cardCount.toLocaleString('en-US')} cards and delivering their finals: ${Math.round(performance.now() - start)} ms`);
  await cards.shutdown();
}

async function benchPush(): Promise<void> {
  const cards = createProgressCards({ channels: [noopChannel()], logger: silentLogger, env: {} });
  const runs = Array.from({ length: 100 }, (_, i) => script(i));
  let events = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    for (const run of runs) {
      const card = cards.open('noop');
      for (const event of run) { card.push(event); events += 1; }
    }
    await cards.idle();
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(`ProgressCard.push end to end (validate + reduce + schedule + render + no-op send): ${Math.round(events / seconds).toLocaleString('en-US')} events/s`);
  await cards.shutdown();
}

/** A file write whose arguments stream in: 1 MB in 20 000 deltas (re-reading them all on each delta took ~48 s once). */
function benchStreamedArgs(): void {
  const state = new CardState({ startedAt: 0 });
  state.apply({ type: 'tool.started', callId: 'w', name: 'write_file' }, 0);
  const start = performance.now();
  state.apply({ type: 'tool.args_delta', callId: 'w', delta: '{"file_path":"src/big.ts","content":"' }, 1);
  const chunk = 'const a = 1;\\n' + 'x'.repeat(36);
  for (let i = 0; i < 20_000; i++) state.apply({ type: 'tool.args_delta', callId: 'w', delta: chunk }, 2);
  state.apply({ type: 'tool.args_delta', callId: 'w', delta: '"}' }, 3);
  console.log(`streamed tool arguments: 1 MB in 20,000 deltas applied in ${Math.round(performance.now() - start)} ms`);
}

/**
 * The flush pump's heap at 100 000 cards: comparisons per push + pop (a heap needs about
 * 3 log₂ n ≈ 50; a scan would need n/2 = 50 000) and the time taken.
 */
function benchPriorityQueue(n = 100_000): void {
  let comparisons = 0;
  const queue = new PriorityQueue<number>((a, b) => {
    comparisons++;
    return a < b;
  });
  const start = performance.now();
  for (let i = 0; i < n; i++) queue.push((i * 7919) % n);
  let inOrder = true;
  for (let i = 0; i < n; i++) if (queue.pop() !== i) inOrder = false;
  const ms = performance.now() - start;
  console.log(`priority queue: ${n.toLocaleString('en-US')} pushes + pops in ${ms.toFixed(0)} ms, ${(comparisons / n).toFixed(1)} comparisons per entry (3·log₂ n = ${(3 * Math.log2(n)).toFixed(1)})${inOrder ? '' : ' — OUT OF ORDER'}`);
}

benchReduceRender();
benchStreamedArgs();
benchPriorityQueue();
await benchPush();
await benchMemory(10_000);
