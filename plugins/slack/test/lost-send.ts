/**
 * What the lost-post tests share. chat.postMessage has no idempotency key: the plugin reconciles a
 * post that went unanswered by the idempotency key in its message metadata. These tests make Slack
 * answer posts late (after the plugin gave up on them, 0.3 s) and look at what remains in the
 * channel. Retries in the harness come 1 s and 2 s after a failure.
 */
import { afterEach, expect } from 'vitest';
import { harness, type Harness, type HarnessOptions } from './harness.js';

/** How long the plugin waits for Slack's answer to a call before it gives up on it, ms. */
const GIVE_UP_MS = 300;

/**
 * Returns a function starting the Slack harness, by default with the plugin giving up on a call
 * after {@link GIVE_UP_MS} (`plugin` options given replace that default); the harness it started is
 * closed after each test.
 */
export function useLostPostHarness(): (options?: HarnessOptions) => Promise<Harness> {
  let current: Harness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options = {}) => {
    current = await harness({ ...options, plugin: options.plugin ?? { requestTimeoutMs: GIVE_UP_MS } });
    return current;
  };
}

/** Slack applies (and answers) the card's 1st, 2nd… post only after the given ms each. */
export function applyPostsLate(h: Harness, ...latenciesMs: readonly number[]): void {
  for (const [index, latencyMs] of latenciesMs.entries()) h.emulator.faults.add({ route: 'chat.postMessage', nth: index + 1, latencyMs });
}

/** The chat.postMessage calls Slack applied. */
export const appliedPosts = (h: Harness) => h.emulator.calls().filter((call) => call.route === 'chat.postMessage' && call.outcome === 'accepted');

/** The channel's messages that are not deleted, the people's chatter (`chatter …`) left out. */
export const liveCards = (h: Harness) => h.emulator.messages().filter((message) => message.state !== 'deleted' && !message.text.startsWith('chatter '));

/** Exactly one card is left in the channel, completed and showing the answer `Finished.`. */
export function expectOneCompletedCard(h: Harness): void {
  const remaining = liveCards(h);
  expect(remaining).toHaveLength(1);
  expect(remaining[0]!.text).toMatch(/^Completed/);
  expect(JSON.stringify(remaining[0]!.blocks)).toContain('Finished.');
}
