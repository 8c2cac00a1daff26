import type { Redis } from 'ioredis';

/** The parts of an ioredis client the watch reads (a fake in unit tests). */
export type WatchedClient = Pick<Redis, 'on' | 'once' | 'commandQueue'> & { readonly stream: Pick<Redis['stream'], 'on' | 'off' | 'destroy' | 'destroyed'> | undefined };

/**
 * Drops `client`'s connection when Redis has sent nothing for `silenceMs` while commands wait for
 * their replies (a frozen server, a host gone without closing the connection): ioredis then fails
 * those commands, so the stores fall back at once, and reconnects in the background. A Redis that
 * is only slow (a machine under load working through hundreds of queued scripts) keeps sending the
 * replies of the commands queued ahead and is waited for, however long the last one takes: Redis
 * answers a connection's commands in order, so a reply on the socket is progress for every command.
 * Looks every quarter of `silenceMs`; the silence is counted from the first look that saw commands
 * waiting. Returns a function that stops the watch (also stopped when the client ends).
 */
export function watchReplies(client: WatchedClient, silenceMs: number): () => void {
  let heardAt = performance.now();
  let waitingSince: number | undefined;
  let watched: WatchedClient['stream'];
  const heard = () => {
    heardAt = performance.now();
  };
  const follow = () => {
    watched?.off('data', heard);
    watched = client.stream;
    watched?.on('data', heard);
    heard();
  };
  const silentFor = () => performance.now() - Math.max(heardAt, waitingSince ?? Number.POSITIVE_INFINITY);
  const look = () => {
    if (client.commandQueue.length === 0) {
      waitingSince = undefined;
      return;
    }
    waitingSince ??= performance.now();
    if (silentFor() < silenceMs) return;
    const stream = client.stream;
    // A look late after a stalled event loop runs before this turn reads the replies waiting on the
    // socket: decide only once it has read them.
    setImmediate(() => {
      if (client.commandQueue.length === 0 || silentFor() < silenceMs || stream !== client.stream || !stream || stream.destroyed) return;
      waitingSince = undefined;
      stream.destroy(new Error(`Redis sent nothing for ${silenceMs} ms while commands waited for their replies (silenceTimeoutMs)`));
    });
  };
  follow();
  client.on('connect', follow);
  const timer = setInterval(look, Math.max(1, silenceMs / 4));
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    watched?.off('data', heard);
  };
  client.once('end', stop);
  return stop;
}
