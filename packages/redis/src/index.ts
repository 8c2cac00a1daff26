/**
 * `@progresscard/redis`: the app's budgets and open cards in Redis, for several processes behind one
 * Feishu or DingTalk app.
 *
 * ```ts
 * import { createProgressCards } from '@progresscard/core';
 * import { redisStore } from '@progresscard/redis';
 *
 * const store = await redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
 * const cards = createProgressCards({ channels: [feishu.fromEnv()], store });
 * ```
 * @packageDocumentation
 */
export { redisStore, type RedisStore, type RedisStoreOptions } from './redis-store.js';
export { RedisBudgetStore, DEFAULT_FALLBACK_FRACTION, type RedisBudgetStoreOptions } from './redis-budget-store.js';
export { RedisCardStore, type RedisCardStoreOptions } from './redis-card-store.js';
export { RedisClickRelay, type RedisClickRelayOptions } from './redis-click-relay.js';
export { RedisStoreError, redactRedisUrl, type RedisConnectionOptions } from './connection.js';
