import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../helpers.js';
import { CALL_CAP, cappedCard, streamSentences, tenMinuteTool } from './capped-card.js';

afterEach(() => vi.useRealTimers());

/**
 * `runCallCap` holds back progressive updates only: an update it held back is not what the card
 * shows (the latest state goes out once the stretched tick allows), a question always goes out,
 * and a native stream's appends count against the cap like edits do (issue 30, breaker findings).
 */
describe('per-message call cap: what it holds back', () => {
  it('a question asked when only the final call is left is shown at once, and the final still goes out', async () => {
    const { channel, card, received } = cappedCard('capped', { open: { locale: 'en' } });
    await tenMinuteTool(card);
    expect(received()).toHaveLength(CALL_CAP - 1);
    const asked = Date.now();
    const decision = card.requestApproval({ prompt: 'Deploy to prod?' });
    // The tool's timer keeps ticking while the question is open: only the update showing the question goes out.
    await settle(60_000);
    const shown = channel.calls.filter((call) => !call.failure && call.payload.status === 'waiting');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.at - asked).toBeLessThan(3000);
    card.toolFinished('c1', 'ok');
    card.complete('done');
    await settle(20_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(received().at(-1)!.payload).toMatchObject({ status: 'completed', answer: 'done' });
    void decision;
  });

  it('an update held back by the stretched tick goes out later even when nothing changes any more', async () => {
    const { card, received } = cappedCard('capped', { open: { locale: 'en' } });
    card.toolStarted('c1', 'shell', { command: 'make' });
    // Ticks (3 s) spend calls past half the cap: after the 7th call (at 20.75 s) the tick is stretched to 7.5 s.
    await settle(21_000);
    expect(received()).toHaveLength(7);
    // The tool ends right after that update: the change is held back, and the card then stays quiet (no tool runs, no tick).
    card.toolFinished('c1', 'built');
    card.answer('Half-way there.');
    await settle(60_000);
    const last = received().at(-1)!;
    expect(last.payload.status).toBe('running');
    expect(last.payload.answer).toBe('Half-way there.');
    expect(received().length).toBeLessThanOrEqual(CALL_CAP - 1);
    card.complete();
    await settle(20_000);
    expect((await card.finalDelivery).ok).toBe(true);
    expect(received().length).toBeLessThanOrEqual(CALL_CAP);
  });

  it('a native stream keeps within the cap: appends are counted and held back like updates, the final holds every character', async () => {
    const { card, received, streams } = cappedCard('capped stream', { streaming: { lifetime: { maxAgeMs: 3_600_000 } }, open: { locale: 'en' } });
    const answer = await streamSentences(card, 120);
    card.complete();
    await settle(30_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(received().length).toBeLessThanOrEqual(CALL_CAP);
    expect(streams().map((stream) => stream.text).join('')).toBe(answer);
    expect(streams().at(-1)).toMatchObject({ state: 'stopped', status: 'completed' });
  });
});
