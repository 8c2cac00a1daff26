/** Runs fixtures/worker.ts as a real Node process (tsx on the sources) and reads its JSON lines. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator, type FeishuEmulatorOptions } from '@progresscard/emulator';
import { startTestRedis, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import type { WorkerConfig } from './fixtures/worker.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Worker {
  readonly child: ChildProcess;
  /** Resolves with the first line of `type` the worker printed; rejects if it exits first. */
  next(type: string): Promise<Record<string, unknown>>;
  /** Every line of `type` printed so far. */
  seen(type: string): Record<string, unknown>[];
  /** `kill -9`. */
  kill(): Promise<void>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

export function startWorker(config: WorkerConfig): Worker {
  // tsx as a loader inside this one process (its CLI would run the script in a grandchild that
  // `kill -9` of the child leaves running).
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/multi-process/fixtures/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.base.json', WORKER_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const lines: Record<string, unknown>[] = [];
  const waiting: { type: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of waiting.filter((w) => w.type === line.type)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    seen: (type) => lines.filter((line) => line.type === type),
    next(type) {
      const seen = lines.find((line) => line.type === type);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.push({ type, resolve });
        void exited.then((code) => reject(new Error(`worker ${config.name} exited (${code}) before "${type}": ${stderr.slice(-2000)}`)));
      });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * What a kill/restart test needs: a real redis-server and the Feishu emulator (started before the file's
 * tests, stopped after, with every worker the tests started), and the worker config they share.
 */
export interface KillWorld {
  readonly redis: TestRedis;
  readonly emulator: FeishuEmulator;
  /** Starts a worker that is killed after the file's tests. */
  start(config: WorkerConfig): Worker;
  /** The card JSON the emulator holds for a message. */
  shown(messageId: string): string;
}

export function killWorld(emulatorOptions: FeishuEmulatorOptions): KillWorld {
  let redis: TestRedis | undefined;
  let emulator: FeishuEmulator | undefined;
  const workers: Worker[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
    emulator = await startFeishuEmulator(emulatorOptions);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.kill()));
    await emulator?.close();
    await redis?.stop();
  });
  return {
    get redis() {
      return redis!;
    },
    get emulator() {
      return emulator!;
    },
    start(config) {
      const worker = startWorker(config);
      workers.push(worker);
      return worker;
    },
    shown: (messageId) => JSON.stringify(emulator!.message(messageId)?.card),
  };
}
