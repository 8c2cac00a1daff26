/**
 * RedisCardStore against a real redis-server: the lease rules of core's CardStore contract (the same
 * ones InMemoryCardStore keeps), atomic across clients, and redisStore's start-up errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@progresscard/core';
import type { StoredCard } from '@progresscard/core/store';
import { redactRedisUrl, redisStore, RedisStoreError, type RedisStore } from '../src/index.js';
import { startLatencyProxy, startTestRedis, uniquePrefix, type TestRedis } from './support/test-redis.js';

let redis: TestRedis;
const opened: RedisStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis.stop();
});

async function open(prefix: string): Promise<RedisStore> {
  const store = await redisStore({ url: redis.url, keyPrefix: prefix });
  opened.push(store);
  return store;
}

const card = (fencingToken: number, expiresAt = 1000, owner = 'a'): StoredCard => ({
  cardId: 'card-1', runId: 'run-1', channelId: 'feishu', target: { receiveId: 'oc_1' }, status: 'running', phase: 'progressive',
  message: { id: 'om_1' }, idempotencyKey: 'card-1-0', continuations: [undefined, { id: 'om_2' }], title: 'Deploy', locale: 'en',
  startedAt: 10, tools: [{ callId: 'c1', name: 'shell', detail: 'npm test', startedAt: 20 }], contentHash: 'abc',
  lease: { owner, expiresAt, fencingToken },
});

describe('RedisCardStore', () => {
  it('stores a card as it was written and lists it', async () => {
    const store = await open(uniquePrefix('cards'));
    expect(await store.cards.put(card(1))).toBe(true);
    // JSON keeps a hole in the continuations as null: the core reads it as "not sent yet".
    expect(await store.cards.get('card-1')).toEqual({ ...card(1), continuations: [null, { id: 'om_2' }] });
    expect((await store.cards.list()).map((stored) => stored.runId)).toEqual(['run-1']);
  });

  it('claims only an expired lease, raises the token, and refuses writes with the old one', async () => {
    const prefix = uniquePrefix('lease');
    const [a, b] = await Promise.all([open(prefix), open(prefix)]);
    expect(await a!.cards.put(card(1))).toBe(true);
    expect(await b!.cards.claim('card-1', 'b', 5000, 999)).toBeUndefined();
    expect(await b!.cards.claim('card-1', 'b', 5000, 1000)).toEqual({ owner: 'b', expiresAt: 5000, fencingToken: 2 });
    expect(await a!.cards.put(card(1))).toBe(false);
    expect(await a!.cards.delete('card-1', 1)).toBe(false);
    expect(await a!.cards.renew('a', [{ cardId: 'card-1', fencingToken: 1 }], 9000)).toEqual({ lost: ['card-1'], missing: [] });
    expect(await b!.cards.renew('b', [{ cardId: 'card-1', fencingToken: 2 }, { cardId: 'never-stored', fencingToken: 1 }], 9000))
      .toEqual({ lost: [], missing: ['never-stored'] });
    expect((await a!.cards.get('card-1'))?.lease).toEqual({ owner: 'b', expiresAt: 9000, fencingToken: 2 });
    expect(await b!.cards.put(card(2, 9000, 'b'))).toBe(true);
    expect(await b!.cards.delete('card-1', 2)).toBe(true);
    expect(await a!.cards.list()).toEqual([]);
    expect(await a!.cards.claim('card-1', 'a', 5000, 99_999)).toBeUndefined();
  });

  it('of two processes claiming one expired card at once, exactly one wins', async () => {
    const prefix = uniquePrefix('race');
    const stores = await Promise.all([0, 1, 2, 3].map(() => open(prefix)));
    await stores[0]!.cards.put(card(1));
    const claims = await Promise.all(stores.map((store, i) => store.cards.claim('card-1', `p${i}`, 9000, 2000)));
    // A claim by the owner that already holds it renews; the others find a live lease.
    expect(claims.filter((lease) => lease !== undefined)).toHaveLength(1);
  });
});

describe('redisStore', () => {
  it('fails at start with the URL named and its password redacted when Redis does not answer', async () => {
    const attempt = redisStore({ url: 'redis://app:s3cret-pass@127.0.0.1:1/0', connectTimeoutMs: 1000 });
    await expect(attempt).rejects.toThrow(RedisStoreError);
    await expect(attempt).rejects.toThrow(/^cannot connect to Redis at redis:\/\/app:\*\*\*@127\.0\.0\.1:1\/0: /);
    await expect(attempt).rejects.not.toThrow(/s3cret/);
  });

  it('rejects a URL that is not redis:// with the value named (redacted)', async () => {
    await expect(redisStore({ url: 'http://u:pw@host' })).rejects.toThrow('redisStore: url = "http://u:***@host/" must be a redis:// or rediss:// URL');
    expect(redactRedisUrl('rediss://:pw@cache.internal:6380?password=pw')).toBe('rediss://:***@cache.internal:6380?password=***');
  });

  it('rejects a fallback fraction outside (0, 1]', async () => {
    await expect(redisStore({ url: redis.url, fallbackFraction: 2 })).rejects.toThrow('fallbackFraction = 2: must be a number in (0, 1]');
  });

  it('rejects a timeout that is not a positive number of ms, naming the option', async () => {
    await expect(redisStore({ url: redis.url, silenceTimeoutMs: 0 })).rejects.toThrow('redisStore: silenceTimeoutMs = 0 must be a positive number of ms');
    await expect(redisStore({ url: redis.url, commandTimeoutMs: Number.NaN })).rejects.toThrow('redisStore: commandTimeoutMs = NaN must be a positive number of ms');
  });
});

describe('redisStore with a slow Redis (2 s round trips through a proxy)', () => {
  it('starts at the default silence timeout, which follows the measured latency, and stores cards', async () => {
    const proxy = await startLatencyProxy(redis.url, 1000);
    try {
      const store = await redisStore({ url: proxy.url, keyPrefix: uniquePrefix('slow'), logger: silentLogger });
      expect(await store.cards.put(card(1))).toBe(true);
      expect((await store.cards.get('card-1'))?.runId).toBe(card(1).runId);
      await store.close();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('refuses to start with a silenceTimeoutMs or commandTimeoutMs below the measured latency, saying which option to change', async () => {
    const proxy = await startLatencyProxy(redis.url, 1000);
    try {
      await expect(redisStore({ url: proxy.url, commandTimeoutMs: 1000, logger: silentLogger })).rejects.toThrow(
        /answered PING in \d+ ms, more than commandTimeoutMs = 1000 ms: raise commandTimeoutMs, or leave it unset/,
      );
      await expect(redisStore({ url: proxy.url, silenceTimeoutMs: 1000, logger: silentLogger })).rejects.toThrow(
        /answered PING in \d+ ms, more than silenceTimeoutMs = 1000 ms: raise silenceTimeoutMs, or leave it unset to follow the measured latency/,
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
