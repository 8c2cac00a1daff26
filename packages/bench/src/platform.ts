import { SlidingWindowLimiter, type LimitWindow } from '@progresscard/emulator';
import type { CallFailure, CardTransport, MessageRef, SendRequest, UpdateRequest } from '@progresscard/core';

/** Which platform a point runs against. */
export type ChannelName = 'feishu' | 'dingtalk';

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

/** The documented limits the emulators enforce (packages/emulator), per channel. */
const LIMITS: Record<ChannelName, { app: readonly LimitWindow[]; perTarget?: readonly LimitWindow[]; appCode: string; targetCode: string }> = {
  // Feishu: per app and API 50/s + 1000/min (99991400); 5/s per receiving chat (send) and per message (patch): 230020.
  feishu: { app: [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }], perTarget: [{ limit: 5, intervalMs: 1000 }], appCode: '99991400', targetCode: '230020' },
  // DingTalk: 20 QPS per app per API (403 Forbidden.AccessDenied.QpsLimitForAppkeyAndApi).
  dingtalk: { app: [{ limit: 20, intervalMs: 1000 }], appCode: 'QpsLimitForAppkeyAndApi', targetCode: '' },
};

/** Sustained calls/s of one API route of `channel` (the slowest window). */
export function sustainedRate(channel: ChannelName): number {
  return Math.min(...LIMITS[channel].app.map((window) => (window.limit * 1000) / window.intervalMs));
}

/** What the platform model saw: every call with its arrival time and outcome. */
export interface PlatformCall {
  readonly route: 'send' | 'update';
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
  readonly calls: PlatformCall[] = [];
  private readonly app: SlidingWindowLimiter;
  private readonly perTarget: SlidingWindowLimiter | undefined;
  private readonly random: () => number;
  private nextMessage = 1;

  constructor(
    readonly channel: ChannelName,
    seed: number,
    private readonly onAccepted: (payload: unknown, at: number, target: unknown) => void,
    private readonly latencyMs = { min: 40, max: 160 },
  ) {
    const clock = () => Date.now();
    const limits = LIMITS[channel];
    this.app = new SlidingWindowLimiter(limits.app, clock);
    this.perTarget = limits.perTarget && new SlidingWindowLimiter(limits.perTarget, clock);
    this.random = seededRandom(seed ^ 0x5eed);
  }

  /** A transport of this platform for `chatOf(target)` chats. */
  transport(chatOf: (target: unknown) => string): CardTransport<unknown, unknown> {
    const targets = new Map<string, unknown>();
    return {
      send: async (request: SendRequest<unknown, unknown>): Promise<MessageRef> => {
        await this.call('send', `chat:${chatOf(request.target)}`, request.payload, request.target);
        const id = `m${this.nextMessage++}`;
        targets.set(id, request.target);
        return { id };
      },
      update: async (request: UpdateRequest<unknown>): Promise<void> => {
        await this.call('update', `message:${request.message.id}`, request.payload, targets.get(request.message.id));
      },
      classify: (error: unknown): CallFailure =>
        error instanceof PlatformRejection
          ? { kind: 'rate-limited', retryAfterMs: error.retryAfterMs, scope: error.scope, detail: error.code }
          : { kind: 'transient', detail: String(error) },
    };
  }

  private async call(route: 'send' | 'update', target: string, payload: unknown, cardTarget: unknown): Promise<void> {
    const roundTrip = this.latencyMs.min + this.random() * (this.latencyMs.max - this.latencyMs.min);
    await sleep(roundTrip / 2);
    const at = Date.now();
    const limits = LIMITS[this.channel];
    let rejection: PlatformRejection | undefined;
    const app = this.app.tryAcquire(route);
    if (!app.allowed) rejection = new PlatformRejection(limits.appCode, this.channel === 'dingtalk' ? 1000 : app.retryAfterMs, 'channel');
    else if (this.perTarget) {
      const perTarget = this.perTarget.tryAcquire(target);
      if (!perTarget.allowed) rejection = new PlatformRejection(limits.targetCode, perTarget.retryAfterMs, 'card');
    }
    this.calls.push({ route, at, code: rejection?.code });
    await sleep(roundTrip / 2);
    if (rejection) throw rejection;
    this.onAccepted(payload, at, cardTarget);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
