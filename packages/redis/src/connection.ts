import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { watchReplies } from './reply-watch.js';

/** Thrown by `redisStore` when Redis cannot be reached at start, or its options are wrong. */
export class RedisStoreError extends Error {
  override readonly name = 'RedisStoreError';
}

/** `url` with its password (and any `password` query parameter) replaced by `***`, safe to log. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** How to reach Redis. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  readonly url: string;
  /** Give up connecting at start (the TCP connection and the first PINGs) after this long, ms (default 5000). */
  readonly connectTimeoutMs?: number;
  /**
   * Redis sending nothing for this long while commands wait for their replies counts as losing the
   * connection, ms: it is dropped (the waiting commands fail, so the budgets fall back to their local
   * share and the card store reports itself unavailable at once) and reconnected in the background.
   * A Redis that is only slow keeps sending the replies of the commands queued ahead and is not an
   * outage, however long a command waits (200 budget scripts queued on a machine at load 30 take
   * seconds). Default: follows the latency measured at start, 4 times the slowest of 3 PINGs and at
   * least 5000 ms (a busy Redis is quiet between the batches of commands it runs; a Redis 2 s away works without configuration; the PINGs must answer within
   * `connectTimeoutMs`). A connection refused or closed is an outage at once, whatever this is.
   * Given, a Redis slower than it at start is refused with a `RedisStoreError` saying so.
   */
  readonly silenceTimeoutMs?: number;
  /**
   * A command not answered within this long counts as an outage, ms, even while Redis answers the
   * commands queued ahead of it: a Redis that is only busy is then taken for down, and this process
   * paces on its local fallback budget while the others still share Redis, so give it well above
   * the longest queue you expect (seconds under load). Default: none (see `silenceTimeoutMs`).
   * Given, a Redis slower than it at start is refused with a `RedisStoreError` saying so.
   */
  readonly commandTimeoutMs?: number;
}

/**
 * Least silence timeout when it follows the measured latency, ms. Redis writes the replies of the
 * commands it read in one batch (16 KB: about 270 budget scripts) only after running them all, so a
 * busy Redis goes quiet between batches; on a machine at load 20+ a batch took over a second (a 1 s
 * floor dropped a busy connection in `npm test` next to a CPU hog, and that process paced on its
 * fallback while the others shared Redis).
 */
const MIN_SILENCE_TIMEOUT_MS = 5000;
/** The followed silence timeout is this many times the slowest PING at start. */
const SILENCE_TIMEOUT_LATENCY_FACTOR = 4;
/** PINGs timed at start. */
const LATENCY_PINGS = 3;

/** Rejects with `error()` when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * ioredis keeps the URL's password in `client.options`: a dump of `client` (or of a store holding
 * it) shows the redacted URL and the connection status instead. Its duplicates (the click relay's
 * pub/sub connection) carry the same options, so `duplicate()` hides theirs too.
 */
function hideCredentials(client: Redis, url: string): Redis {
  const describe = () => ({ redis: redactRedisUrl(url), status: client.status });
  const duplicate = (...args: Parameters<Redis['duplicate']>) => hideCredentials(Redis.prototype.duplicate.apply(client, args), url);
  for (const [key, value] of [[inspect.custom, describe], ['toJSON', describe], ['duplicate', duplicate]] as const) {
    Object.defineProperty(client, key, { value, enumerable: false, configurable: true, writable: true });
  }
  return client;
}

/**
 * Connects an ioredis client that fails fast while Redis is away (no offline queue, no retried
 * commands: the stores fall back instead of waiting) and reconnects in the background.
 * A command waits for its reply as long as Redis keeps answering (see `silenceTimeoutMs`).
 * @throws RedisStoreError naming the URL (password redacted) when it is malformed or Redis does not
 *   answer, or naming the option when a timeout is not a positive number or below the measured latency.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const { url } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw new RedisStoreError(`redisStore: url = ${JSON.stringify(typeof url === 'string' ? redactRedisUrl(url) : url)} must be a redis:// or rediss:// URL`);
  }
  for (const field of ['connectTimeoutMs', 'silenceTimeoutMs', 'commandTimeoutMs'] as const) {
    const value = options[field];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
      throw new RedisStoreError(`redisStore: ${field} = ${typeof value === 'number' ? String(value) : JSON.stringify(value)} must be a positive number of ms`);
    }
  }
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  hideCredentials(client, url);
  // Connection errors are reported through the stores (once per outage), not as unhandled events.
  let lastError: unknown;
  client.on('error', (error) => (lastError = error));
  let slowestPingMs = 0;
  try {
    // No command timeout yet: a slow Redis is measured, not refused; each step has connectTimeoutMs.
    const step = <T>(promise: Promise<T>, what: string) =>
      within(promise, connectTimeoutMs, () => new Error(`no answer to ${what} within connectTimeoutMs = ${connectTimeoutMs} ms`));
    await step(client.connect(), 'the connection');
    for (let ping = 0; ping < LATENCY_PINGS; ping += 1) {
      const sentAt = performance.now();
      await step(client.ping(), 'PING');
      slowestPingMs = Math.max(slowestPingMs, performance.now() - sentAt);
    }
  } catch (error) {
    client.disconnect();
    const cause = error instanceof Error && error.message.startsWith('no answer to') ? error : (lastError ?? error);
    throw new RedisStoreError(`cannot connect to Redis at ${redactRedisUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  for (const field of ['silenceTimeoutMs', 'commandTimeoutMs'] as const) {
    const given = options[field];
    if (given !== undefined && slowestPingMs > given) {
      client.disconnect();
      throw new RedisStoreError(
        `Redis at ${redactRedisUrl(url)} answered PING in ${Math.round(slowestPingMs)} ms, more than ${field} = ${given} ms: ` +
          `raise ${field}, or leave it unset${field === 'silenceTimeoutMs' ? ' to follow the measured latency' : ''}`,
      );
    }
  }
  if (options.commandTimeoutMs !== undefined) client.options.commandTimeout = options.commandTimeoutMs;
  watchReplies(client, options.silenceTimeoutMs ?? Math.max(MIN_SILENCE_TIMEOUT_MS, Math.ceil(SILENCE_TIMEOUT_LATENCY_FACTOR * slowestPingMs)));
  return client;
}
