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
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, data is kept (an outage). */
  pause(): void;
  /** Lets a paused server answer again (SIGCONT). */
  resume(): void;
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

/** Resolves once `PING` on the port answers (`+PONG`, or `-NOAUTH` from a server with a password), rejects after `timeoutMs`. */
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
        resolve(/^(\+PONG|-NOAUTH)/.test(data.toString()));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Options of {@link startTestRedis}. */
export interface TestRedisOptions {
  /**
   * Start the server with `--requirepass` and put the password in {@link TestRedis.url}
   * (`redis://:<password>@127.0.0.1:<port>`). Not applied to a `REDIS_URL` server (its URL is returned as given).
   */
  readonly password?: string;
}

/**
 * @throws Error saying what to install when `redis-server` is missing and `REDIS_URL` is unset.
 */
export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given) {
    const noop = async () => {};
    const unsupported = async () => {
      throw new Error('REDIS_URL is set: this test cannot restart that Redis');
    };
    const cannot = () => {
      throw new Error('REDIS_URL is set: this test cannot pause that Redis');
    };
    return { url: given, owned: false, kill: unsupported, start: unsupported, stop: noop, pause: cannot, resume: cannot };
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const auth = options.password === undefined ? [] : ['--requirepass', options.password];
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], { stdio: 'ignore' });
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
  const signal = (name: NodeJS.Signals) => () => void child?.kill(name);
  await start();
  const stop = async () => {
    child?.kill('SIGCONT');
    await kill();
  };
  const credentials = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  return { url: `redis://${credentials}127.0.0.1:${port}`, owned: true, kill, start, stop, pause: signal('SIGSTOP'), resume: signal('SIGCONT') };
}

/** A key prefix no other test uses, so tests can share one Redis. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
}

/** A TCP proxy on loopback in front of `port` that holds every chunk `delayMs` in each direction. */
export async function startLatencyProxy(target: string, delayMs: number): Promise<{ readonly url: string; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), delayMs));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port: proxyPort } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
