import type { CallFailure, CardTransport, MessageRef } from '@progresscard/core';
import type { AnyChannelPlugin, EmulatorCall } from './descriptor.js';

/**
 * What the CLI records of a plugin it did not write: every `send`, `update` and `reply` the core
 * made through the plugin's transport, with its payload and outcome, so the preview page, `--json`
 * and `smoke` can show a plugin's cards without knowing its platform.
 */

/** One message as the recorded calls left it. */
export interface RecordedMessage {
  readonly id: string;
  /** The last payload the transport accepted for it. */
  readonly payload: unknown;
  /** True once a final update (or a final send) was accepted. */
  readonly final: boolean;
  /** Accepted sends and updates. */
  readonly version: number;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms. */
  readonly updatedAt: number;
}

/** Calls and messages recorded from one plugin's transport. */
export class CallRecording {
  private readonly messageList: RecordedMessage[] = [];
  private readonly callList: EmulatorCall[] = [];
  private readonly listeners = new Set<() => void>();
  private sentCount = 0;

  /** Messages in the order they were first sent. */
  messages(): readonly RecordedMessage[] {
    return this.messageList;
  }

  /** Every call in arrival order, accepted or not (`code` = the failure kind the plugin classified). */
  calls(): readonly EmulatorCall[] {
    return this.callList;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message id for a transport that keeps none (the in-memory stand-in). */
  nextMessageId(): string {
    this.sentCount += 1;
    return `message-${this.sentCount}`;
  }

  /** Records an accepted send or update of `id`. */
  accepted(route: string, id: string, payload: unknown, final: boolean): void {
    const now = Date.now();
    const index = this.messageList.findIndex((message) => message.id === id);
    const before = index >= 0 ? this.messageList[index] : undefined;
    const next: RecordedMessage = {
      id,
      payload,
      final: final || (before?.final ?? false),
      version: (before?.version ?? 0) + 1,
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    };
    if (index >= 0) this.messageList[index] = next;
    else this.messageList.push(next);
    this.call(route, 'accepted', 200, id);
  }

  /** Records a call the transport threw on, with the kind its `classify` gave. */
  refused(route: string, failure: CallFailure, id?: string): void {
    this.call(route, 'rejected', 0, id, failure.kind, failure.detail);
  }

  private call(route: string, outcome: EmulatorCall['outcome'], status: number, key?: string, code?: string, msg?: string): void {
    this.callList.push({ seq: this.callList.length + 1, at: Date.now(), route, outcome, status, ...(code ? { code } : {}), ...(msg ? { msg } : {}), ...(key ? { key } : {}) });
    for (const listener of this.listeners) listener();
  }
}

/** `plugin` with its transport recorded into `recording`; calls and their errors pass through unchanged. */
export function recordedPlugin(plugin: AnyChannelPlugin, recording: CallRecording): AnyChannelPlugin {
  const inner = plugin.transport;
  const refused = (route: string, error: unknown, id?: string): never => {
    recording.refused(route, inner.classify(error), id);
    throw error;
  };
  const transport: CardTransport<unknown, unknown> = {
    classify: (error) => inner.classify(error),
    async send(request) {
      let ref: MessageRef;
      try {
        ref = await inner.send(request);
      } catch (error) {
        return refused('send', error);
      }
      recording.accepted('send', ref.id, request.payload, request.final ?? false);
      return ref;
    },
    async update(request) {
      try {
        await inner.update(request);
      } catch (error) {
        refused('update', error, request.message.id);
      }
      recording.accepted('update', request.message.id, request.payload, request.final);
    },
    ...(inner.reply ? { reply: (request) => inner.reply!(request) } : {}),
    ...(inner.refreshAuth ? { refreshAuth: () => inner.refreshAuth!() } : {}),
  };
  return { ...plugin, transport };
}

/**
 * `plugin` with an in-memory transport that accepts every call: for a plugin module that brings no
 * fake platform, so `demo` and `smoke` still show what its renderer draws.
 */
export function inMemoryPlugin(plugin: AnyChannelPlugin, recording: CallRecording): AnyChannelPlugin {
  const transport: CardTransport<unknown, unknown> = {
    classify: (error) => ({ kind: 'transient', detail: error instanceof Error ? error.message : String(error) }),
    send: async () => ({ id: recording.nextMessageId() }),
    update: async () => undefined,
  };
  return recordedPlugin({ ...plugin, transport, interaction: undefined }, recording);
}
