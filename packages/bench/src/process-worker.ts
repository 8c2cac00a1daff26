/**
 * One process of `npm run bench:processes`: N synthetic runs through progresscard with the real
 * Feishu plugin over loopback HTTP to the shared Feishu emulator, budgets and cards in the shared
 * Redis. Reads its settings from the `BENCH_WORKER` environment variable (JSON), prints its
 * `PointResult` as one JSON line on stdout.
 */
import { redisStore } from '@progresscard/redis';
import { runPoint } from './run-point.js';
import { syntheticRuns } from './workload.js';

interface WorkerSettings {
  readonly index: number;
  readonly n: number;
  readonly seed: number;
  readonly limitMs: number;
  readonly redisUrl: string;
  readonly emulator: { readonly baseUrl: string; readonly appId: string; readonly appSecret: string };
}

const settings = JSON.parse(process.env.BENCH_WORKER ?? '') as WorkerSettings;
// Each process's runs have chats of their own (chat ids offset by 1000 per process).
const runs = syntheticRuns(settings.n, settings.seed).map((run) => ({ ...run, chat: `chat-${settings.index * 1000 + Number(run.chat.replace(/\D/g, ''))}` }));
const store = await redisStore({ url: settings.redisUrl, keyPrefix: 'bench:' });
const emulator = { ...settings.emulator, close: async () => undefined };
const result = await runPoint('progresscard', 'feishu', 'synthetic', runs, settings.seed, { realImmediate: setImmediate, limitMs: settings.limitMs, emulator, store });
process.stdout.write(`${JSON.stringify(result)}\n`);
await store.close();
process.exit(0);
