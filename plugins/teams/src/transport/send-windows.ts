import type { BudgetWindow } from '@progresscard/core/plugin';

/** Conversations whose recent calls are kept (the least recently used forgotten first). */
const REMEMBERED_CONVERSATIONS = 10_000;

/** Extra ms each window is held against the arrival jitter between leaving here and Teams counting the call. */
const JITTER_MARGIN_MS = 50;

/**
 * The per-conversation windows as Teams counts them: by the calls it receives
 * (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit, "per bot per thread").
 * The core paces each call by the slot it reserved, but a call leaves only once the bot has its token:
 * the first calls of a process all wait for the first token and reach Teams together, later than the
 * slots they were counted at, and a call paced a second after the first slot then came less than a
 * second after them (429 with 7 a second). This guard counts the calls when they really leave and
 * holds one back, without a request, until every window of its conversation has room; when the core's
 * pacing holds (the usual case) it never waits. Updates, deletes and stream activities are counted like
 * sends (whether Teams counts them is not stated on that page: UNCONFIRMED).
 */
export class ConversationSendWindows {
  readonly #sent = new Map<string, number[]>();
  readonly #windowsOf: (conversationId: string) => readonly BudgetWindow[];
  readonly #now: () => number;

  constructor(windowsOf: (conversationId: string) => readonly BudgetWindow[], now: () => number = Date.now) {
    this.#windowsOf = windowsOf;
    this.#now = now;
  }

  /** Waits until one more call to `conversationId` fits each of its windows, then counts it (as leaving now). */
  async admit(conversationId: string): Promise<void> {
    for (let wait = this.#waitMs(conversationId); wait > 0; wait = this.#waitMs(conversationId)) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = this.#sent.get(conversationId) ?? [];
    sent.push(this.#now());
    // Most recently used last: the conversation quiet the longest is forgotten first.
    this.#sent.delete(conversationId);
    this.#sent.set(conversationId, sent);
    if (this.#sent.size > REMEMBERED_CONVERSATIONS) this.#sent.delete(this.#sent.keys().next().value as string);
  }

  /** Ms until one more call fits; also forgets calls older than every window. */
  #waitMs(conversationId: string): number {
    const sent = this.#sent.get(conversationId);
    if (!sent) return 0;
    const windows = this.#windowsOf(conversationId);
    const now = this.#now();
    const horizon = Math.max(...windows.map((window) => window.intervalMs)) + JITTER_MARGIN_MS;
    while (sent.length > 0 && sent[0]! <= now - horizon) sent.shift();
    if (sent.length === 0) {
      this.#sent.delete(conversationId);
      return 0;
    }
    let wait = 0;
    for (const { limit, intervalMs } of windows) {
      const inWindow = sent.filter((at) => at > now - intervalMs - JITTER_MARGIN_MS);
      if (inWindow.length >= limit) wait = Math.max(wait, inWindow[inWindow.length - limit]! + intervalMs + JITTER_MARGIN_MS - now);
    }
    return wait;
  }
}
