import type { CardLease, CardStore, LeaseRenewal, StoredCard } from '@progresscard/core/store';
import type { Redis } from 'ioredis';
import { CLAIM_CARD_SCRIPT, DELETE_CARD_SCRIPT, PUT_CARD_SCRIPT, RENEW_CARDS_SCRIPT } from './card-scripts.js';
import { luaCommand, type LuaCommand } from './lua-command.js';

/** How long a stored card is kept without a write, ms: a week (a card nobody ends is forgotten then). */
const KEEP_CARD_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of a {@link RedisCardStore}. */
export interface RedisCardStoreOptions {
  /** Prefix of every Redis key (default `progresscard:`). */
  readonly keyPrefix?: string;
}

/**
 * A `CardStore` in Redis: open cards (channel, message id / outTrackId, idempotency key, run id,
 * status, running tools with their start times, last accepted content hash) with their lease
 * (owner, expiry, fencing token). Writes, claims and renewals are Lua scripts, so a write carrying a
 * stale fencing token is refused atomically. Every method rejects while Redis does not answer; the
 * core then logs once and keeps delivering.
 */
export class RedisCardStore implements CardStore {
  private readonly prefix: string;
  private readonly scripts: Readonly<Record<'put' | 'delete' | 'claim' | 'renew', LuaCommand>>;

  constructor(
    private readonly client: Redis,
    options: RedisCardStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? 'progresscard:';
    this.scripts = {
      put: luaCommand(client, 'progresscardPutCard', PUT_CARD_SCRIPT),
      delete: luaCommand(client, 'progresscardDeleteCard', DELETE_CARD_SCRIPT),
      claim: luaCommand(client, 'progresscardClaimCard', CLAIM_CARD_SCRIPT),
      renew: luaCommand(client, 'progresscardRenewCards', RENEW_CARDS_SCRIPT),
    };
  }

  async get(cardId: string): Promise<StoredCard | undefined> {
    return this.read(await this.client.hgetall(this.cardKey(cardId)));
  }

  async put(card: StoredCard): Promise<boolean> {
    const { lease } = card;
    const written = await this.scripts.put(
      2, this.cardKey(card.cardId), this.indexKey,
      JSON.stringify(card), String(lease.fencingToken), lease.owner, String(lease.expiresAt), card.cardId, String(KEEP_CARD_MS),
    );
    return written === 1;
  }

  async delete(cardId: string, fencingToken: number): Promise<boolean> {
    return (await this.scripts.delete(2, this.cardKey(cardId), this.indexKey, String(fencingToken), cardId)) === 1;
  }

  async list(): Promise<StoredCard[]> {
    const ids = await this.client.smembers(this.indexKey);
    if (ids.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const id of ids) pipeline.hgetall(this.cardKey(id));
    const replies = (await pipeline.exec()) ?? [];
    const cards: StoredCard[] = [];
    const gone: string[] = [];
    replies.forEach(([error, fields], index) => {
      if (error) throw error;
      const card = this.read(fields as Record<string, string>);
      if (card) cards.push(card);
      else gone.push(ids[index]!);
    });
    // Cards that expired from Redis leave their id in the index: drop it.
    if (gone.length > 0) await this.client.srem(this.indexKey, ...gone);
    return cards;
  }

  async claim(cardId: string, owner: string, expiresAt: number, now: number): Promise<CardLease | undefined> {
    const token = Number(await this.scripts.claim(1, this.cardKey(cardId), owner, String(expiresAt), String(now)));
    return token < 0 ? undefined : { owner, expiresAt, fencingToken: token };
  }

  async renew(owner: string, cards: readonly { readonly cardId: string; readonly fencingToken: number }[], expiresAt: number): Promise<LeaseRenewal> {
    if (cards.length === 0) return { lost: [], missing: [] };
    const lost = (await this.scripts.renew(
      cards.length, ...cards.map((card) => this.cardKey(card.cardId)),
      owner, String(expiresAt), ...cards.map((card) => String(card.fencingToken)),
    )) as number[];
    return {
      lost: lost.filter((index) => index > 0).map((index) => cards[index - 1]!.cardId),
      missing: lost.filter((index) => index < 0).map((index) => cards[-index - 1]!.cardId),
    };
  }

  private get indexKey(): string {
    return `${this.prefix}cards`;
  }

  private cardKey(cardId: string): string {
    return `${this.prefix}card:${cardId}`;
  }

  /** The stored card of a hash, its lease from the hash's lease fields (claims and renewals change only those). */
  private read(fields: Record<string, string>): StoredCard | undefined {
    if (!fields.json) return undefined;
    const card = JSON.parse(fields.json) as StoredCard;
    return { ...card, lease: { owner: fields.owner!, expiresAt: Number(fields.expiresAt), fencingToken: Number(fields.token) } };
  }
}
