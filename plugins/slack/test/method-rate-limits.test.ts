import { createProgressCards, silentLogger } from '@progresscard/core';
import { ErrorCode, type WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { slack } from '../src/index.js';

afterEach(() => vi.useRealTimers());

/** What `@slack/web-api` throws for a 429 with `rejectRateLimitedCalls` (a `WebAPIRateLimitedError`). */
function rateLimited(seconds: number): Error {
  return Object.assign(new Error('A rate limit was exceeded'), { code: ErrorCode.RateLimitedError, retryAfter: seconds });
}

interface Call {
  readonly method: 'chat.postMessage' | 'chat.update';
  readonly at: number;
  readonly text: string;
  readonly refused: boolean;
}

/** A Slack client whose chat.update answers its first call with a 429 (Retry-After 30 s); posts are accepted. */
function clientWithLimitedUpdate(calls: Call[]): WebClient {
  let ts = 0;
  let refusedOnce = false;
  return {
    chat: {
      postMessage: (args: { channel: string; text: string }) => {
        calls.push({ method: 'chat.postMessage', at: Date.now(), text: args.text, refused: false });
        ts += 1;
        return Promise.resolve({ ok: true, channel: args.channel, ts: `1700000000.${String(ts).padStart(6, '0')}` });
      },
      update: (args: { text: string }) => {
        const refused = !refusedOnce;
        refusedOnce = true;
        calls.push({ method: 'chat.update', at: Date.now(), text: args.text, refused });
        return refused ? Promise.reject(rateLimited(30)) : Promise.resolve({ ok: true });
      },
    },
  } as unknown as WebClient;
}

/**
 * Slack applies its limits "per API method per app per workspace"
 * (https://docs.slack.dev/apis/web-api/rate-limits): a 429 on chat.update says nothing of
 * chat.postMessage. Before, the plugin scoped it to the whole channel, and a new card's post waited
 * for chat.update's Retry-After.
 */
describe('Slack: a 429 on chat.update holds updates only', () => {
  it('a new card is posted at once while chat.update waits out its 30 s Retry-After', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
    const calls: Call[] = [];
    const plugin = slack({ botToken: 'xoxb-1-2-abc', channel: 'C0123ABC', locale: 'en' }, { client: clientWithLimitedUpdate(calls), env: {} });
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const first = cards.open('slack');
    first.push({ type: 'run.started', title: 'First' });
    first.push({ type: 'answer.delta', text: 'One.' });
    await vi.advanceTimersByTimeAsync(2_000);
    first.push({ type: 'answer.delta', text: ' More.' });
    for (let i = 0; i < 100 && !calls.some((call) => call.refused); i++) await vi.advanceTimersByTimeAsync(100);
    const limitedAt = calls.find((call) => call.refused)!.at;

    const openedAt = Date.now();
    const second = cards.open('slack');
    second.push({ type: 'run.started', title: 'Second' });
    second.push({ type: 'answer.delta', text: 'Two.' });
    await vi.advanceTimersByTimeAsync(60_000);
    const secondPost = calls.find((call) => call.method === 'chat.postMessage' && call.text.includes('Second'));
    expect(secondPost).toBeDefined();
    expect(secondPost!.at - openedAt).toBeLessThan(5_000);
    // chat.update itself still waits for the Retry-After.
    const nextUpdate = calls.find((call) => call.method === 'chat.update' && call.at > limitedAt);
    expect(nextUpdate).toBeDefined();
    expect(nextUpdate!.at - limitedAt).toBeGreaterThanOrEqual(30_000);
    first.push({ type: 'run.completed' });
    second.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await first.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(await second.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await cards.shutdown();
  });
});
