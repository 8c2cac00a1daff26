/**
 * A Redis for tests: `REDIS_URL` when set, else Debian's `redis-server` started on a free loopback
 * port without persistence (`--save '' --appendonly no`) and stopped by {@link TestRedis.stop}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';

export interface TestRedis {
  readonly url: string;
  /** True when this helper runs the server (so it can stop and restart it). */
  readonly owned: boolean;
  /** Stops the server (its data is gone: no persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves once `PING` on the port answers `+PONG`, rejects after `timeoutMs`. */
async function answers(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.setTimeout(500);
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * @throws Error saying what to install when `redis-server` is missing and `REDIS_URL` is unset.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given) {
    const noop = async () => {};
    const unsupported = async () => {
      throw new Error('REDIS_URL is set: this test cannot restart that Redis');
    };
    return { url: given, owned: false, kill: unsupported, start: unsupported, stop: noop };
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = started;
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (error) =>
        reject(new Error(`cannot start ${REDIS_SERVER} (${error.message}): install it with \`apt-get install -y redis-server\`, or set REDIS_URL`)),
      );
    });
    await Promise.race([answers(port, 10_000), failed]);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGKILL');
    await once(running, 'exit');
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, owned: true, kill, start, stop: kill };
}

/** A key prefix no other test uses, so tests can share one Redis. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
}
