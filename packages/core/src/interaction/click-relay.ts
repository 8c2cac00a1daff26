import type { ClickReply, ControlClick } from '../plugin/click-contract.js';

/** Answers clicks handed over by other processes (see {@link ClickRelay.listen}). */
export type RelayedClickHandler = (click: ControlClick) => Promise<ClickReply>;

/**
 * How the processes of one app hand clicks to the process that owns the card. A platform delivers
 * a click (or a typed reply) to any process of the app (Feishu's long connection in cluster mode
 * to one random client, HTTP callbacks to whichever process the load balancer picks), but only the
 * process holding the card's lease (`CardLease.owner`) has the question and the agent waiting for
 * it. That process decides, so a decision is taken exactly once; the others forward.
 *
 * Implementations: {@link InMemoryClickRelay} (compositions of one process; the default) and
 * `RedisClickRelay` in `@progresscard/redis` (pub/sub between processes). Notes (decisions taken,
 * reply codes) are kept by the relay so that any process can answer "already decided" after the
 * owner ended or died.
 */
export interface ClickRelay {
  /**
   * Delivers clicks forwarded to `owner` (a composition's lease owner id) to `handler` until
   * {@link unlisten}. One handler per owner.
   */
  listen(owner: string, handler: RelayedClickHandler): Promise<void>;
  /** Stops delivering clicks to `owner`. */
  unlisten(owner: string): Promise<void>;
  /**
   * Hands `click` to the process listening as `owner` and resolves with its reply; resolves
   * undefined when no process listens as `owner` (it stopped) or none answered within `timeoutMs`.
   * Never rejects.
   */
  forward(owner: string, click: ControlClick, timeoutMs: number): Promise<ClickReply | undefined>;
  /** Keeps `value` under `key` for `ttlMs` ms, for every process. Best effort: may reject when the store is away. */
  putNote(key: string, value: string, ttlMs: number): Promise<void>;
  /** The value kept under `key`, or undefined. May reject when the store is away. */
  getNote(key: string): Promise<string | undefined>;
}

/**
 * The default {@link ClickRelay}: handlers and notes in this process's memory. Share one instance
 * between compositions of one process (with one `InMemoryCardStore`) to have them hand clicks to
 * each other as separate processes would.
 */
export class InMemoryClickRelay implements ClickRelay {
  private readonly handlers = new Map<string, RelayedClickHandler>();
  private readonly notes = new Map<string, { value: string; until: number }>();

  async listen(owner: string, handler: RelayedClickHandler): Promise<void> {
    this.handlers.set(owner, handler);
  }

  async unlisten(owner: string): Promise<void> {
    this.handlers.delete(owner);
  }

  async forward(owner: string, click: ControlClick, timeoutMs: number): Promise<ClickReply | undefined> {
    const handler = this.handlers.get(owner);
    if (!handler) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([handler(click).catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async putNote(key: string, value: string, ttlMs: number): Promise<void> {
    this.notes.set(key, { value, until: Date.now() + ttlMs });
    if (this.notes.size > 4000) this.notes.delete(this.notes.keys().next().value as string);
  }

  async getNote(key: string): Promise<string | undefined> {
    const note = this.notes.get(key);
    if (note && note.until < Date.now()) this.notes.delete(key);
    return note && note.until >= Date.now() ? note.value : undefined;
  }
}
