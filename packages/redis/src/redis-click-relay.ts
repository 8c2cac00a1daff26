import { randomUUID } from 'node:crypto';
import type { ClickRelay, ClickReply, ControlClick, RelayedClickHandler } from '@progresscard/core/store';
import type { Redis } from 'ioredis';

/** Options of a {@link RedisClickRelay}. */
export interface RedisClickRelayOptions {
  /** Prefix of every Redis key and pub/sub channel (default `progresscard:`). */
  readonly keyPrefix?: string;
}

/** A click handed to its owner: answer on `replyTo` under `id`. */
interface Handover {
  readonly id: string;
  readonly replyTo: string;
  readonly click: ControlClick;
}

/**
 * A `ClickRelay` over Redis pub/sub: each process subscribes to the channel of its owner id
 * (`<prefix>clicks:<owner>`); a process that receives a click for a card another process holds
 * publishes it there and waits for the answer on its own reply channel. `PUBLISH` reports how many
 * subscribers got the message, so a click for a process that stopped (Redis dropped its
 * connection) is answered at once instead of after the timeout. Notes are plain keys with a TTL.
 *
 * Pub/sub needs a connection of its own: the relay opens one (a duplicate of the client) on first
 * use and closes it in {@link close}. ioredis subscribes again after a reconnect; a click published
 * while a subscriber was away is lost and its sender answers "not answering" after the timeout.
 */
export class RedisClickRelay implements ClickRelay {
  private readonly prefix: string;
  private readonly replyChannel: string;
  private subscriber: Promise<Redis> | undefined;
  private readonly handlers = new Map<string, RelayedClickHandler>();
  private readonly waiting = new Map<string, (reply: ClickReply) => void>();

  constructor(
    private readonly client: Redis,
    options: RedisClickRelayOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? 'progresscard:';
    this.replyChannel = `${this.prefix}click-replies:${randomUUID()}`;
  }

  async listen(owner: string, handler: RelayedClickHandler): Promise<void> {
    this.handlers.set(owner, handler);
    await (await this.subscribed()).subscribe(this.ownerChannel(owner));
  }

  async unlisten(owner: string): Promise<void> {
    this.handlers.delete(owner);
    const subscriber = await this.subscriber?.catch(() => undefined);
    await subscriber?.unsubscribe(this.ownerChannel(owner)).catch(() => undefined);
  }

  async forward(owner: string, click: ControlClick, timeoutMs: number): Promise<ClickReply | undefined> {
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<ClickReply | undefined>((resolve) => {
      this.waiting.set(id, resolve);
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      await this.subscribed();
      const handover: Handover = { id, replyTo: this.replyChannel, click };
      const receivers = await this.client.publish(this.ownerChannel(owner), JSON.stringify(handover));
      // Nobody subscribed: the owner process is gone (its lease not yet taken over).
      if (receivers === 0) return undefined;
      return await answered;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }

  async putNote(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(`${this.prefix}note:${key}`, value, 'PX', ttlMs);
  }

  async getNote(key: string): Promise<string | undefined> {
    return (await this.client.get(`${this.prefix}note:${key}`)) ?? undefined;
  }

  /** Closes the pub/sub connection (the client itself belongs to the store). */
  async close(): Promise<void> {
    const subscriber = await this.subscriber?.catch(() => undefined);
    this.subscriber = undefined;
    subscriber?.disconnect();
  }

  private ownerChannel(owner: string): string {
    return `${this.prefix}clicks:${owner}`;
  }

  /** The pub/sub connection, connected and subscribed to this relay's reply channel. */
  private subscribed(): Promise<Redis> {
    if (this.subscriber) return this.subscriber;
    const connecting = (async () => {
      const subscriber = this.client.duplicate();
      // Errors surface through the commands that fail (a click answered "not answering").
      subscriber.on('error', () => undefined);
      subscriber.on('message', (channel: string, text: string) => this.receive(channel, text));
      await subscriber.connect();
      await subscriber.subscribe(this.replyChannel);
      return subscriber;
    })();
    // A failed connection is tried again on the next use.
    connecting.catch(() => {
      if (this.subscriber === connecting) this.subscriber = undefined;
    });
    this.subscriber = connecting;
    return connecting;
  }

  private receive(channel: string, text: string): void {
    if (channel === this.replyChannel) {
      const { id, reply } = JSON.parse(text) as { id: string; reply: ClickReply };
      this.waiting.get(id)?.(reply);
      return;
    }
    const handler = this.handlers.get(channel.slice(`${this.prefix}clicks:`.length));
    if (!handler) return;
    const { id, replyTo, click } = JSON.parse(text) as Handover;
    void handler(click)
      .then((reply) => this.client.publish(replyTo, JSON.stringify({ id, reply })))
      .catch(() => undefined);
  }
}
