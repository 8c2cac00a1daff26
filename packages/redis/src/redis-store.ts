import { consoleLogger, type Logger, type ProgressCardsStore } from '@progresscard/core';
import type { Redis } from 'ioredis';
import { connectRedis, type RedisConnectionOptions } from './connection.js';
import { RedisBudgetStore } from './redis-budget-store.js';
import { RedisCardStore } from './redis-card-store.js';
import { RedisClickRelay } from './redis-click-relay.js';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions extends RedisConnectionOptions {
  /** Prefix of every Redis key (default `progresscard:`): one prefix per app sharing a Redis is not needed, keys name the app already. */
  readonly keyPrefix?: string;
  /** Share of each limit a process keeps to while Redis is away (default 0.25, see `RedisBudgetStoreOptions`). */
  readonly fallbackFraction?: number;
  /** Where the one warning of an outage goes (default: stderr through core's `consoleLogger`). */
  readonly logger?: Logger;
}

/** Budgets, card state and clicks in one Redis, for `createProgressCards({ store })`. */
export interface RedisStore extends ProgressCardsStore {
  readonly budgets: RedisBudgetStore;
  readonly cards: RedisCardStore;
  /** Hands clicks to the process owning the card (pub/sub; a second connection, opened on first use). */
  readonly clicks: RedisClickRelay;
  /** The ioredis client (for health checks). */
  readonly client: Redis;
  /** Closes the connection (after `ProgressCards.shutdown()`). */
  close(): Promise<void>;
}

/**
 * Connects to Redis and returns a store for `createProgressCards({ store: await redisStore({ url }) })`:
 * every process given a store on the same Redis shares the app's budgets, takes over the cards of
 * a process that stopped, and hands each click to the process that owns the card.
 * @throws RedisStoreError (as a rejection) naming the URL, password redacted, when it is malformed
 *   or Redis does not answer within `connectTimeoutMs`.
 * @throws Error naming `fallbackFraction` when it is not in (0, 1].
 */
export async function redisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const client = await connectRedis(options);
  const { keyPrefix, fallbackFraction, logger = consoleLogger } = options;
  let budgets: RedisBudgetStore;
  try {
    budgets = new RedisBudgetStore(client, { keyPrefix, fallbackFraction, logger });
  } catch (error) {
    client.disconnect();
    throw error;
  }
  const clicks = new RedisClickRelay(client, { keyPrefix });
  return {
    budgets,
    cards: new RedisCardStore(client, { keyPrefix }),
    clicks,
    client,
    async close() {
      await clicks.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
