/**
 * The reply watch on a stand-in for an ioredis client (its socket, its queue of commands waiting for
 * a reply), on fake time: a Redis that keeps answering, however slowly, keeps its connection; one
 * that sends nothing while commands wait loses it, so the stores fall back at once.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchReplies, type WatchedClient } from '../src/reply-watch.js';

afterEach(() => vi.useRealTimers());

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroyedWith: Error | undefined;
  destroy(error?: Error): this {
    this.destroyed = true;
    this.destroyedWith = error;
    return this;
  }
}

/** A client with `waiting` commands queued on `stream`. */
function fakeClient() {
  const client = Object.assign(new EventEmitter(), { stream: new FakeSocket(), commandQueue: { length: 0 } });
  return { client, watched: client as unknown as WatchedClient };
}

describe('watchReplies', () => {
  it('keeps the connection of a Redis that answers 200 queued commands one every 100 ms (20 s for the last), and drops it once Redis goes silent', async () => {
    vi.useFakeTimers();
    const { client, watched } = fakeClient();
    watchReplies(watched, 1000);
    client.commandQueue.length = 200;
    for (let answered = 0; answered < 200; answered += 1) {
      await vi.advanceTimersByTimeAsync(100);
      client.stream.emit('data', Buffer.from('+OK\r\n'));
      client.commandQueue.length -= 1;
    }
    expect(client.stream.destroyed).toBe(false);
    // Idle for a minute: nothing waits, nothing to hear.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.stream.destroyed).toBe(false);
    // One command, and Redis sends nothing (frozen, or its host gone without closing the connection).
    client.commandQueue.length = 1;
    await vi.advanceTimersByTimeAsync(900);
    expect(client.stream.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(client.stream.destroyed).toBe(true);
    expect(client.stream.destroyedWith?.message).toContain('Redis sent nothing for 1000 ms while commands waited for their replies (silenceTimeoutMs)');
  });

  it('watches the socket of each new connection, and stops when the client ends', async () => {
    vi.useFakeTimers();
    const { client, watched } = fakeClient();
    watchReplies(watched, 1000);
    const first = client.stream;
    client.stream = new FakeSocket();
    client.emit('connect');
    client.commandQueue.length = 1;
    for (let i = 0; i < 20; i += 1) {
      await vi.advanceTimersByTimeAsync(500);
      client.stream.emit('data', Buffer.from('+OK\r\n'));
    }
    expect(client.stream.destroyed).toBe(false);
    expect(first.destroyed).toBe(false);
    client.emit('end');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.stream.destroyed).toBe(false);
  });
});
