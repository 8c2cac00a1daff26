import { memoryChannel, type CallFailure, type ChannelPlugin, type MemoryChannel, type MemoryChannelOptions, type MemoryPayload, type MessageRef } from '../../src/index.js';

/**
 * How the platform answers one call:
 * - `ok`: applied and answered;
 * - `rate-limited` / `transient` / `gone` / `rejected`: refused, nothing applied;
 * - `lost`: applied, but the answer never arrives (the client times out: transient);
 * - `late`: the client times out (transient) and the platform applies the call `lateMs` later;
 * - `hang`: the call never settles and is never applied (the core's call timeout gives it up);
 * - `expired`: the token expired (an `auth` failure, nothing applied); the plugin can refresh it;
 * - `outage`: this call and the next `calls - 1` answer 5xx (`transient`, nothing applied), a long
 *   run of server errors (e.g. DingTalk's 30 s of 5xx).
 */
export type PlatformAnswer =
  | { readonly kind: 'ok' | 'rate-limited' | 'transient' | 'gone' | 'rejected' | 'lost' | 'hang' | 'expired' }
  | { readonly kind: 'late'; readonly lateMs: number }
  | { readonly kind: 'outage'; readonly calls: number };

class ScriptedFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(`${failure.kind}: ${failure.detail}`);
  }
}

const REFUSALS: Record<'rate-limited' | 'transient' | 'gone' | 'rejected' | 'expired', CallFailure> = {
  expired: { kind: 'auth', detail: '99991663 token expired' },
  'rate-limited': { kind: 'rate-limited', retryAfterMs: 500, detail: '429' },
  transient: { kind: 'transient', detail: 'HTTP 500' },
  gone: { kind: 'gone', detail: 'message recalled' },
  rejected: { kind: 'rejected', detail: 'HTTP 400' },
};

/** Which calls an answer script applies to, in call order: main sends, main updates, or continuation sends. */
export type CallSelector = 'send' | 'update' | 'reply' | 'any';

/**
 * The in-memory channel behind a scripted platform: the i-th call matching a selector gets the
 * i-th answer of its script (then `ok`). Sends de-duplicate by idempotency key like Feishu's `uuid`:
 * a retry returns the first try's message and leaves its content as it was.
 */
export function scriptedPlatform(scripts: Partial<Record<CallSelector, readonly PlatformAnswer[]>>, options: MemoryChannelOptions = {}) {
  const channel: MemoryChannel = memoryChannel(options);
  const counters: Record<CallSelector, number> = { send: 0, update: 0, reply: 0, any: 0 };
  const byKey = new Map<string, Promise<MessageRef>>();
  const pending = new Set<Promise<unknown>>();
  let outageLeft = 0;
  let refreshes = 0;
  const next = (selector: CallSelector): PlatformAnswer => {
    const index = counters[selector]++;
    const anyIndex = counters.any++;
    const scripted = scripts[selector]?.[index] ?? scripts.any?.[anyIndex] ?? { kind: 'ok' };
    if (scripted.kind === 'outage') outageLeft = Math.max(outageLeft, scripted.calls);
    if (outageLeft > 0) {
      outageLeft -= 1;
      return { kind: 'transient' };
    }
    return scripted;
  };
  const answer = async <T>(selector: CallSelector, apply: () => Promise<T>): Promise<T> => {
    let scripted = next(selector);
    // Only an existing message can be gone: a send scripted `gone` (while an earlier try's message
    // may still be in the making) answers like an unreachable platform.
    if (scripted.kind === 'gone' && selector !== 'update') scripted = { kind: 'transient' };
    if (scripted.kind === 'ok') return apply();
    if (scripted.kind === 'hang') return new Promise<T>(() => undefined);
    if (scripted.kind === 'lost') {
      await apply().catch(() => undefined);
      throw new ScriptedFailure({ kind: 'transient', detail: 'timeout (answer lost)' });
    }
    if (scripted.kind === 'late') {
      const late = new Promise((resolve) => setTimeout(resolve, scripted.lateMs)).then(() => apply()).catch(() => undefined);
      pending.add(late);
      void late.finally(() => pending.delete(late));
      throw new ScriptedFailure({ kind: 'transient', detail: 'timeout (applied later)' });
    }
    // (an `outage` answer was turned into its run of `transient` ones by `next`)
    throw new ScriptedFailure(REFUSALS[scripted.kind === 'outage' ? 'transient' : scripted.kind]);
  };
  /** A `gone` answer to an update means the message was recalled: it no longer shows in the chat. */
  const update = (request: { message: MessageRef; payload: MemoryPayload; final: boolean }) =>
    answer('update', () => channel.transport.update(request)).catch((error: unknown) => {
      if (error instanceof ScriptedFailure && error.failure.kind === 'gone') channel.recall(request.message.id);
      throw error;
    });
  const plugin: ChannelPlugin<MemoryPayload, string> = {
    ...channel,
    transport: {
      send: (request) =>
        answer(request.replyTo ? 'reply' : 'send', () => {
          const known = byKey.get(request.idempotencyKey);
          if (known) return known;
          const created = channel.transport.send(request);
          byKey.set(request.idempotencyKey, created);
          return created;
        }),
      update,
      classify: (error) => (error instanceof ScriptedFailure ? error.failure : channel.transport.classify(error)),
      refreshAuth: async () => void refreshes++,
    },
  };
  return {
    plugin,
    channel,
    /** Credential refreshes the core asked for. */
    refreshes: () => refreshes,
    /** Calls the platform may still apply late. */
    lateCalls: () => pending.size,
    /** Calls made so far (each send, update and reply the plugin was asked for). */
    callsMade: () => counters.any,
    /** Main messages (not continuation parts) and what each shows last. */
    mainMessages: () => [...channel.messages.values()].filter((message) => !message.replyTo),
  };
}
