import type { CallFailure, CardTransport, MessageRef, SendRequest, UpdateRequest } from '@progresscard/core';
import type { StreamContent, StreamTransport } from '@progresscard/core/plugin';
import { gateOf, type ChannelName, type Gate, type GateCall, type GateRoute } from './gates.js';

export type { ChannelName } from './gates.js';

/** A deterministic random source (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A call the platform model refused: the code the real platform answers with. */
class PlatformRejection extends Error {
  constructor(readonly code: string, readonly retryAfterMs: number, readonly scope: 'card' | 'channel') {
    super(`rejected ${code}`);
  }
}

/** What the platform model saw: every call with its arrival time and outcome. */
export interface PlatformCall {
  readonly route: GateRoute;
  readonly at: number;
  readonly code: string | undefined;
}

/**
 * An in-process model of a platform's API: calls arrive after half a round trip (seeded latency),
 * are counted and limited as the emulators do it (sliding windows per app route, per chat, per
 * message), and answer after the other half. `onAccepted(payload, at)` sees every accepted payload
 * with its arrival time.
 */
export class PlatformModel {
  /** The platform's limits. */
  readonly gate: Gate;
  private readonly random: () => number;
  private nextMessage = 1;

  constructor(
    readonly channel: ChannelName,
    seed: number,
    private readonly onAccepted: (payload: unknown, at: number, target: unknown) => void,
    private readonly latencyMs = { min: 40, max: 160 },
    /** Where calls are logged: give several models (one per app) one list to see them as one platform. */
    readonly calls: PlatformCall[] = [],
  ) {
    this.gate = gateOf(channel, () => Date.now());
    this.random = seededRandom(seed ^ 0x5eed);
  }

  /** A transport of this platform for `chatOf(target)` chats. */
  transport(chatOf: (target: unknown) => string): CardTransport<unknown, unknown> {
    const targets = new Map<string, unknown>();
    return {
      send: async (request: SendRequest<unknown, unknown>): Promise<MessageRef> => {
        const chat = chatOf(request.target);
        await this.call({ route: 'send', chat, message: undefined, draft: isDraft(request.payload) }, request.payload, request.target);
        const id = `m${this.nextMessage++}`;
        targets.set(id, request.target);
        return { id, extra: { chat } };
      },
      update: async (request: UpdateRequest<unknown>): Promise<void> => {
        const target = targets.get(request.message.id);
        await this.call({ route: 'update', chat: chatOf(target), message: request.message.id, draft: isDraft(request.payload) && !request.final }, request.payload, target);
      },
      classify: (error: unknown): CallFailure =>
        error instanceof PlatformRejection
          ? { kind: 'rate-limited', retryAfterMs: error.retryAfterMs, scope: error.scope, detail: error.code }
          : { kind: 'transient', detail: String(error) },
    };
  }

  /**
   * A native stream transport of this platform: each accepted call reports what the chat shows
   * now through `onStreamShown(target, shown, at)` — the card's answer characters so far, and its
   * tool changes (a task seen counts one, a task seen complete or failed two), as the renderer
   * wrapper's payloads do for edited messages; `terminal` once the stream stops with the final.
   * `textMode`: the stream's text mode (`full`: each call carries the stream's whole text, Teams).
   */
  streamTransport(
    chatOf: (target: unknown) => string,
    textMode: 'append' | 'full',
    onStreamShown: (target: unknown, shown: { toolChanges: number; answerChars: number; terminal: boolean }, at: number) => void,
  ): StreamTransport<unknown> {
    const streams = new Map<string, { target: unknown; card: StreamedCard; before: number }>();
    const cards = new Map<unknown, StreamedCard>();
    // `before`: answer characters the card's earlier streams showed (full text mode counts from there).
    const shownAfter = (card: StreamedCard, content: StreamContent, terminal: boolean, before: number) => {
      const tasks = new Map(card.tasks);
      for (const task of content.tasks ?? []) tasks.set(task.id, Math.max(tasks.get(task.id) ?? 0, task.status === 'complete' || task.status === 'error' ? 2 : 1));
      const answerChars = textMode === 'full' ? Math.max(card.answerChars, before + content.text.length) : card.answerChars + content.text.length;
      return { tasks, answerChars, terminal };
    };
    const accept = (target: unknown, card: StreamedCard, next: ReturnType<typeof shownAfter>, at: number) => {
      card.tasks = next.tasks;
      card.answerChars = next.answerChars;
      let toolChanges = 0;
      for (const changes of next.tasks.values()) toolChanges += changes;
      onStreamShown(target, { toolChanges, answerChars: next.answerChars, terminal: next.terminal }, at);
    };
    return {
      start: async (request) => {
        let card = cards.get(request.target);
        if (!card) {
          card = { tasks: new Map(), answerChars: 0 };
          cards.set(request.target, card);
        }
        const before = card.answerChars;
        const next = shownAfter(card, request.content, false, before);
        const at = await this.call({ route: 'start', chat: chatOf(request.target), message: undefined, draft: false }, undefined, undefined);
        accept(request.target, card, next, at);
        const id = `s${this.nextMessage++}`;
        streams.set(id, { target: request.target, card, before });
        return { id, extra: { chat: chatOf(request.target) } };
      },
      append: async (request) => {
        const stream = streams.get(request.stream.id)!;
        const next = shownAfter(stream.card, request.content, false, stream.before);
        const at = await this.call({ route: 'append', chat: chatOf(stream.target), message: request.stream.id, draft: false }, undefined, undefined);
        accept(stream.target, stream.card, next, at);
      },
      stop: async (request) => {
        const stream = streams.get(request.stream.id)!;
        const next = shownAfter(stream.card, request.content, request.reason === 'final', stream.before);
        const at = await this.call({ route: 'stop', chat: chatOf(stream.target), message: request.stream.id, draft: false }, undefined, undefined);
        accept(stream.target, stream.card, next, at);
      },
    };
  }

  /** Makes one call through the gate; resolves with its arrival time once accepted, rejects with the refusal. */
  private async call(call: GateCall, payload: unknown, cardTarget: unknown): Promise<number> {
    const roundTrip = this.latencyMs.min + this.random() * (this.latencyMs.max - this.latencyMs.min);
    await sleep(roundTrip / 2);
    const at = Date.now();
    const admission = this.gate.admit(call);
    const refusal = admission.refusal;
    this.calls.push({ route: call.route, at, code: refusal?.code });
    await sleep(roundTrip / 2);
    admission.answered?.(Date.now());
    if (refusal) throw new PlatformRejection(refusal.code, refusal.retryAfterMs, refusal.scope);
    if (payload !== undefined) this.onAccepted(payload, at, cardTarget);
    return at;
  }
}

/** What a streamed card shows so far, over all its streams: each task's changes (1 seen, 2 ended) and the answer characters. */
interface StreamedCard {
  tasks: Map<string, number>;
  answerChars: number;
}

/** A Telegram answer part that still streams: shown with `sendMessageDraft` until it persists. */
function isDraft(payload: unknown): boolean {
  const stream = (payload as { stream?: { persist?: boolean } } | undefined)?.stream;
  return stream !== undefined && stream.persist === false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
