import { ErrorCode, type WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { slack } from '../src/index.js';
import { classifySlackError, ownLimit } from '../src/transport/classify.js';

const VIEW = { locale: 'en' } as never;

/** What `@slack/web-api` throws for a 429 with `rejectRateLimitedCalls` (a `WebAPIRateLimitedError`). */
function rateLimited(seconds: number): Error {
  return Object.assign(new Error('A rate limit was exceeded'), { code: ErrorCode.RateLimitedError, retryAfter: seconds });
}

/** A client whose every chat method answers with Slack's 429. */
function limitedClient(): WebClient {
  const refuse = () => Promise.reject(rateLimited(30));
  return {
    chat: { postMessage: refuse, update: refuse, startStream: refuse, appendStream: refuse, stopStream: refuse },
    assistant: { threads: { setStatus: refuse } },
    auth: { test: () => Promise.resolve({ ok: true, team_id: 'T1' }) },
  } as unknown as WebClient;
}

/**
 * Slack applies its limits "per API method per app per workspace"
 * (https://docs.slack.dev/apis/web-api/rate-limits): a 429 on a stream method is that method's, and
 * the core pauses only its budget key (`scope: 'method'`); the card's chat.postMessage goes on.
 */
describe('Slack: the scope of a rate limit', () => {
  it('a 429 of a call made through ownLimit is scoped to its method, with its Retry-After; one of no known method pauses the channel', async () => {
    const streamed = await ownLimit('chat.startStream', () => Promise.reject(rateLimited(30))).catch((error: unknown) => error);
    expect(classifySlackError(streamed)).toEqual({ kind: 'rate-limited', scope: 'method', retryAfterMs: 30_000, detail: 'slack ratelimited on chat.startStream (Retry-After 30 s)' });
    const platform = await ownLimit('chat.appendStream', () => Promise.reject(Object.assign(new Error('x'), { code: ErrorCode.PlatformError, data: { error: 'ratelimited' } }))).catch((error: unknown) => error);
    expect(classifySlackError(platform)).toMatchObject({ kind: 'rate-limited', scope: 'method' });
    const http = await ownLimit('chat.stopStream', () => Promise.reject(Object.assign(new Error('x'), { code: ErrorCode.HTTPError, statusCode: 429 }))).catch((error: unknown) => error);
    expect(classifySlackError(http)).toMatchObject({ kind: 'rate-limited', scope: 'method', detail: 'slack HTTP 429 on chat.stopStream' });
    expect(classifySlackError(rateLimited(30))).toMatchObject({ kind: 'rate-limited', scope: 'channel', retryAfterMs: 30_000 });
  });

  it('the plugin\'s stream calls, posts, updates and keep-alive statuses are each scoped to their own method', async () => {
    const plugin = slack({ botToken: 'xoxb-1-2-abc', channel: 'C0123ABC' }, { client: limitedClient(), env: {} });
    const transport = plugin.streaming!.transport;
    const replyToMessage = { messageId: '1700000000.000100', inThread: true };
    const started = await transport.start({ target: undefined, replyToMessage, requester: { id: 'U1' }, idempotencyKey: 'k-s0', content: { text: 'Hi' }, sequence: 0, view: VIEW }).catch((error: unknown) => error);
    expect(plugin.transport.classify(started)).toMatchObject({ kind: 'rate-limited', scope: 'method', detail: expect.stringContaining('chat.startStream') });
    const stream = { id: '1700000000.000200', extra: { channel: 'C0123ABC', threadTs: replyToMessage.messageId } };
    const appended = await transport.append({ stream, content: { text: 'more' }, keepAlive: false }).catch((error: unknown) => error);
    expect(plugin.transport.classify(appended)).toMatchObject({ scope: 'method', detail: expect.stringContaining('chat.appendStream') });
    const kept = await transport.append({ stream, content: { text: '' }, keepAlive: true }).catch((error: unknown) => error);
    expect(plugin.transport.classify(kept)).toMatchObject({ kind: 'rate-limited', scope: 'method', detail: expect.stringContaining('assistant.threads.setStatus') });
    const posted = await plugin.transport.send({ target: undefined, payload: { text: 'card', blocks: [] } as never, idempotencyKey: 'k', replacing: false }).catch((error: unknown) => error);
    expect(plugin.transport.classify(posted)).toEqual({ kind: 'rate-limited', scope: 'method', retryAfterMs: 30_000, detail: 'slack ratelimited on chat.postMessage (Retry-After 30 s)' });
    const updated = await plugin.transport.update({ message: { id: '1700000000.000300', extra: { channel: 'C0123ABC' } }, payload: { text: 'card', blocks: [] } as never, final: false }).catch((error: unknown) => error);
    expect(plugin.transport.classify(updated)).toMatchObject({ kind: 'rate-limited', scope: 'method', detail: expect.stringContaining('chat.update') });
  });
});
