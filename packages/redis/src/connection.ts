import { inspect } from 'node:util';
import { Redis } from 'ioredis';

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
  /** Give up connecting at start after this long, ms (default 5000). */
  readonly connectTimeoutMs?: number;
  /** A command not answered within this long counts as an outage, ms (default 1000). */
  readonly commandTimeoutMs?: number;
}

/**
 * Connects an ioredis client that fails fast while Redis is away (no offline queue, no retried
 * commands: the stores fall back instead of waiting) and reconnects in the background.
 * @throws RedisStoreError naming the URL (password redacted) when it is malformed or Redis does not answer.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const { url } = options;
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw new RedisStoreError(`redisStore: url = ${JSON.stringify(typeof url === 'string' ? redactRedisUrl(url) : url)} must be a redis:// or rediss:// URL`);
  }
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  // ioredis keeps the URL's password in `client.options`: a dump of the client (or of a store
  // holding it) shows the redacted URL and the connection status instead.
  const describe = () => ({ redis: redactRedisUrl(url), status: client.status });
  Object.defineProperty(client, inspect.custom, { value: describe, enumerable: false, configurable: true });
  Object.defineProperty(client, 'toJSON', { value: describe, enumerable: false, configurable: true });
  // Connection errors are reported through the stores (once per outage), not as unhandled events.
  let lastError: unknown;
  client.on('error', (error) => (lastError = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const cause = lastError ?? error;
    throw new RedisStoreError(`cannot connect to Redis at ${redactRedisUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return client;
}
