import { memoryChannel, type MemoryPayload } from '../../plugin/memory-channel.js';
import type { CallFailure } from '../../plugin/contract.js';
import type { ConformanceDriver, ConformanceFault } from './driver.js';

function failureOf(fault: ConformanceFault): CallFailure {
  switch (fault.kind) {
    case 'rate-limited':
      return { kind: 'rate-limited', retryAfterMs: fault.retryAfterMs, detail: 'rate limited' };
    case 'auth':
      return { kind: 'auth', detail: '401 invalid token' };
    case 'transient':
      return { kind: 'transient', detail: '503' };
    case 'not-modified':
      throw new Error('the memory channel never refuses a no-op edit');
  }
}

const textOf = (payload: MemoryPayload) => [payload.title, payload.status, ...payload.tools, payload.thinking, payload.answer, payload.footer].join('\n');

/**
 * A {@link ConformanceDriver} over the core's in-memory channel (`memoryChannel`): the core's own
 * run of the conformance suite, and the smallest example of a driver. It has no card callbacks,
 * so the interaction cases are skipped.
 */
export const memoryChannelDriver: ConformanceDriver & Required<Pick<ConformanceDriver, 'startStreaming'>> = {
  name: 'memory channel',
  async start(setup) {
    const channel = memoryChannel({ overrides: setup.timing });
    return {
      plugin: channel,
      messages: () =>
        [...channel.messages.values()].map((message) => ({
          id: message.id,
          text: textOf(message.history.at(-1)!),
          calls: channel.calls.filter((call) => call.messageId === message.id).map((call) => ({ op: call.op === 'send' || call.op === 'start' ? 'send' : 'update', at: call.at, refused: call.failure !== undefined })),
          ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
        })),
      fail: (op, fault, times = 1) => channel.failNext({ op, failure: failureOf(fault), times }),
      remove: (messageId) => channel.recall(messageId),
      maxInFlight: () => channel.inFlight.max,
      close: async () => undefined,
    };
  },
  async startStreaming(setup) {
    const channel = memoryChannel({ overrides: setup.timing, streaming: { lifetime: { maxAgeMs: setup.streamLifetimeMs } } });
    const streams = () => [...channel.messages.values()].filter((message) => message.stream);
    return {
      plugin: channel,
      close: async () => undefined,
      messages: () =>
        [...channel.messages.values()].map((message) => ({
          id: message.id,
          text: textOf(message.history.at(-1)!),
          calls: channel.calls.filter((call) => call.messageId === message.id).map((call) => ({ op: call.op === 'send' || call.op === 'start' ? 'send' : 'update', at: call.at, refused: call.failure !== undefined })),
        })),
      // A streamed card's first call is the stream's start, its updates are appends (as Slack's chat.startStream / appendStream).
      fail: (op, fault, times = 1) => channel.failNext({ op: op === 'send' ? 'start' : 'append', failure: failureOf(fault), times }),
      remove: (messageId) => channel.recall(messageId),
      maxInFlight: () => channel.inFlight.max,
      streamedCard: async () => ({}),
      streams: () => streams().map((message) => ({ id: message.id, text: message.stream!.text })),
      stopStream: (messageId) => channel.stopStream(messageId),
    };
  },
};
