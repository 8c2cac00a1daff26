import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../helpers.js';
import { CALL_CAP, cappedCard, streamSentences } from './capped-card.js';

afterEach(() => vi.useRealTimers());

/**
 * `runCallCap` with a native stream that reaches its maximum age: once the cap holds progress back,
 * the old stream is closed at its end of life, but no fresh stream is opened for held-back text
 * until the final (breaker finding: with a cap of 10 and a 60 s stream lifetime, 20 minutes of
 * answer deltas made 52 calls and 22 streams, a stop plus a new start at every roll-over).
 */
describe('per-message call cap: native stream roll-overs', () => {
  it('a stream past its lifetime once the cap is spent is stopped, no fresh stream opens until the final, and the final holds every character', async () => {
    const { card, received, streams } = cappedCard('capped stream', { streaming: { lifetime: { maxAgeMs: 60_000 } }, open: { locale: 'en' } });
    const answer = await streamSentences(card, 240);
    // Twenty minutes in: the cap is spent, and every stream opened so far is closed (none outlived its lifetime unclosed).
    expect(received().length).toBeLessThanOrEqual(CALL_CAP);
    const beforeFinal = streams().length;
    expect(streams().every((stream) => stream.state === 'stopped')).toBe(true);
    card.complete();
    await settle(30_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // The final goes out in one fresh stream (a start and its stop), beyond the cap's ten calls.
    expect(streams()).toHaveLength(beforeFinal + 1);
    expect(received().length).toBeLessThanOrEqual(CALL_CAP + 2);
    expect(streams().map((stream) => stream.text).join('')).toBe(answer);
    expect(streams().at(-1)).toMatchObject({ state: 'stopped', status: 'completed' });
  });
});
