import type { BudgetWindow } from '@progresscard/core/plugin';

/** Conversations whose recent calls are kept (the least recently used forgotten first). */
const REMEMBERED_CONVERSATIONS = 10_000;

/**
 * Extra ms each window is held against the arrival jitter the round trips cannot show (a busy event loop
 * slows the fastest round trip too): 250 ms, so a burst takes 7 calls in 1.25 s instead of 1 s; the
 * sustained rate is Teams' 60 in 30 s either way.
 */
const JITTER_MARGIN_MS = 250;

/** Round trips the fastest one is taken from (the latest ones). */
const ROUND_TRIPS_KEPT = 32;

/** Most ms a call is assumed to reach Teams later than the fastest round trip suggests. */
const MAX_LATE_ARRIVAL_MS = 1500;

/** One call as it left: when, and when its answer came (absent while in flight). */
interface SentCall {
  readonly leftAt: number;
  answeredAt?: number;
}

/** A call {@link ConversationSendWindows.admit} let leave: tell it when its answer (or failure) came. */
export interface AdmittedCall {
  answered(): void;
}

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
 *
 * A call is counted when it leaves, plus how much longer its round trip took than the fastest recent one
 * (at most {@link MAX_LATE_ARRIVAL_MS}): a call that opened a new connection (TCP and TLS handshakes) or
 * waited in a busy event loop reaches Teams that much later than one sent on a warm connection, and a
 * burst's first calls arriving late bunched with the next second's calls (429 at 7 a second over loopback).
 * A call still in flight may be late by as much as the recent calls' widest spread: a connector answering
 * in 1.5 s tells a call's own lateness only after the windows that matter (1 and 2 s) have passed. A
 * connector that answers slowly every time (its own processing) moves nothing: only the spread counts.
 * Before the first answer the spread is unknown, and a call in flight counts as arriving now (a slow
 * connector's first burst: its eighth call waits for the first answers instead of meeting 429).
 */
export class ConversationSendWindows {
  readonly #sent = new Map<string, SentCall[]>();
  readonly #roundTrips: number[] = [];
  readonly #windowsOf: (conversationId: string) => readonly BudgetWindow[];
  readonly #now: () => number;

  constructor(windowsOf: (conversationId: string) => readonly BudgetWindow[], now: () => number = Date.now) {
    this.#windowsOf = windowsOf;
    this.#now = now;
  }

  /** Waits until one more call to `conversationId` fits each of its windows, then counts it (as leaving now). */
  async admit(conversationId: string): Promise<AdmittedCall> {
    for (let wait = this.#waitMs(conversationId); wait > 0; wait = this.#waitMs(conversationId)) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = this.#sent.get(conversationId) ?? [];
    const call: SentCall = { leftAt: this.#now() };
    sent.push(call);
    // Most recently used last: the conversation quiet the longest is forgotten first.
    this.#sent.delete(conversationId);
    this.#sent.set(conversationId, sent);
    if (this.#sent.size > REMEMBERED_CONVERSATIONS) this.#sent.delete(this.#sent.keys().next().value as string);
    return {
      answered: () => {
        if (call.answeredAt !== undefined) return;
        call.answeredAt = this.#now();
        this.#roundTrips.push(call.answeredAt - call.leftAt);
        if (this.#roundTrips.length > ROUND_TRIPS_KEPT) this.#roundTrips.shift();
      },
    };
  }

  /**
   * The latest a call may have reached Teams, as far as this process can tell (see the class): an
   * answered call by its own round trip, a call in flight by the widest spread of the recent ones (its
   * own is not known yet), or by how long it is in flight past the fastest round trip when that is more.
   */
  #latestArrival(call: SentCall, now: number, fastestMs: number, spreadMs: number): number {
    const late = call.answeredAt !== undefined ? call.answeredAt - call.leftAt - fastestMs : Math.max(spreadMs, now - call.leftAt - fastestMs);
    return call.leftAt + Math.min(MAX_LATE_ARRIVAL_MS, Math.max(0, late));
  }

  /** Ms until one more call fits; also forgets calls older than every window. */
  #waitMs(conversationId: string): number {
    const sent = this.#sent.get(conversationId);
    if (!sent) return 0;
    const windows = this.#windowsOf(conversationId);
    const now = this.#now();
    const horizon = Math.max(...windows.map((window) => window.intervalMs)) + JITTER_MARGIN_MS + MAX_LATE_ARRIVAL_MS;
    while (sent.length > 0 && sent[0]!.leftAt <= now - horizon) sent.shift();
    if (sent.length === 0) {
      this.#sent.delete(conversationId);
      return 0;
    }
    // Before any answer nothing is known of the spread: a call in flight may reach Teams as late as now.
    const fastestMs = this.#roundTrips.length === 0 ? 0 : Math.min(...this.#roundTrips);
    const spreadMs = this.#roundTrips.length === 0 ? 0 : Math.max(...this.#roundTrips) - fastestMs;
    const arrivals = sent.map((call) => this.#latestArrival(call, now, fastestMs, spreadMs)).sort((a, b) => a - b);
    let wait = 0;
    for (const { limit, intervalMs } of windows) {
      const inWindow = arrivals.filter((at) => at > now - intervalMs - JITTER_MARGIN_MS);
      if (inWindow.length >= limit) wait = Math.max(wait, inWindow[inWindow.length - limit]! + intervalMs + JITTER_MARGIN_MS - now);
    }
    return wait;
  }
}
