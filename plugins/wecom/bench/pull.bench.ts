/**
 * WeCom pull bench: N runs of 12 minutes, time scaled down by SCALE (WeCom's 1 s poll, 6-minute
 * window and the runs all shrink alike), on the emulator over loopback HTTP. Prints how many polls
 * were answered, how often an answer carried a newer state, whether every final is visible and
 * where (stream or response_url), and how long after a run's end its final was visible.
 *
 *   npm run bench:wecom -- [runs=20] [scale=50]
 */
import { createProgressCards, silentLogger } from '@progresscard/core';
import { startWeComEmulator } from '@progresscard/emulator';
import { wecom, wecomCallbacks } from '../src/index.js';
import { setTimeout as sleep } from 'node:timers/promises';

const runs = Number(process.argv[2] ?? 20);
const scale = Number(process.argv[3] ?? 50);
const MINUTE = 60_000 / scale;
const BOT = { token: 'benchToken', encodingAESKey: 'YmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtMDE', botId: 'aib_bench' };

const plugin = wecom(
  { ...BOT, streamWindowMs: Math.round(5.5 * MINUTE), pollGoneAfterMs: Math.round(MINUTE / 4), tickMs: Math.max(20, Math.round(2000 / scale)), perCardIntervalMs: Math.max(10, Math.round(1000 / scale)), debounceMs: Math.max(10, Math.round(1000 / scale)), budget: [{ limit: 10_000, intervalMs: 1000 }] },
  { env: {} },
);
const callbacks = wecomCallbacks(plugin);
const emulator = await startWeComEmulator({ ...BOT, callbackUrl: await callbacks.listen(), limits: { pollIntervalMs: Math.max(5, Math.round(1000 / scale)), streamWindowMs: 6 * MINUTE, idleExpiryMs: MINUTE } });
const cards = createProgressCards({ channels: [plugin], env: {}, logger: silentLogger });

const started = Date.now();
const results = await Promise.all(
  Array.from({ length: runs }, async (_, i) => {
    const sent = await emulator.sendUserMessage({ userid: `user-${i}`, text: '@bot bench' });
    if (!sent.ok) throw new Error(sent.reason);
    const card = cards.open('wecom', { msgid: sent.msgid }, { locale: 'en' });
    card.start({ title: `Run ${i}` });
    for (let minute = 0; minute < 12; minute++) {
      card.toolStarted(`t${minute}`, 'shell', { command: `step ${minute}` });
      await sleep(MINUTE / 2);
      card.toolFinished(`t${minute}`, 'ok');
      await sleep(MINUTE / 2);
    }
    const endedAt = Date.now();
    card.complete(`FINAL-${i}`);
    const final = await card.finalDelivery;
    await emulator.settled();
    const shown = emulator.snapshot().find((m) => m.msgid === sent.msgid && m.text.includes(`FINAL-${i}`));
    return { ok: final.ok && shown !== undefined, via: shown?.kind, visibleAfterMs: Date.now() - endedAt };
  }),
);
const streams = emulator.snapshot().filter((m) => m.kind === 'stream');
const polls = streams.reduce((n, s) => n + s.polls, 0);
const changes = streams.reduce((n, s) => n + s.calls.length, 0);
const wallS = (Date.now() - started) / 1000;
const visible = results.filter((r) => r.ok).length;
const after = results.map((r) => r.visibleAfterMs).sort((a, b) => a - b);
console.log(`wecom pull bench: ${runs} runs of 12 min at 1/${scale} time (${wallS.toFixed(1)} s wall)`);
console.log(`  polls answered        ${polls} (${(polls / wallS).toFixed(0)}/s; ${(polls / runs).toFixed(0)} per stream; asked every ${Math.max(5, Math.round(1000 / scale))} ms)`);
console.log(`  answers with a newer state ${changes} (${((changes / Math.max(1, polls)) * 100).toFixed(0)}% of polls)`);
console.log(`  streams expired by WeCom (846608) ${streams.filter((s) => s.expiredWith !== undefined).length}`);
console.log(`  finals visible        ${visible}/${runs} (via ${results.filter((r) => r.via === 'reply').length} response_url, ${results.filter((r) => r.via === 'stream').length} stream)`);
console.log(`  final visible after run end: median ${after[Math.floor(after.length / 2)]} ms, max ${after.at(-1)} ms (wall, scaled time)`);
await cards.shutdown();
await emulator.close();
await callbacks.stop();
process.exit(visible === runs ? 0 : 1);
