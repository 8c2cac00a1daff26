import type { FinalDelivery } from '@progresscard/core';
import { faultCase as caseById, loadFaultCases, type FaultCase } from '@progresscard/core/testing';
import type { FeishuMessageSnapshot } from '@progresscard/emulator';
import { expect, vi } from 'vitest';
import { acceptedCards, notOlder, progressOf, textOf, type Harness } from './harness.js';
import { f05Answer } from './views.js';

/**
 * The field fault cases both Feishu modes run (platform-faults.e2e.test.ts for the patched IM card,
 * platform-faults-cardkit.e2e.test.ts for the CardKit entity): the same script and checks, with the
 * fault on each mode's own update route.
 */
const FEISHU_FAULT_CASES = loadFaultCases(new URL('./fixtures/faults.jsonl', import.meta.url));

/** A case of fixtures/faults.jsonl by id. @throws Error listing the ids there are when `id` is not among them. */
export const faultCase = (id: string): FaultCase => caseById(FEISHU_FAULT_CASES, id);

/**
 * F01, the rate limit answered mid-run: `route`'s second call answers 230020 while the tool runs
 * (the run waits for that answer: a condition, not a wall-clock window a busy machine can miss), then
 * the run goes on. Checks what both modes promise: one message, completed (green) with the case's
 * answer, every accepted card no older than the one before. Resolves with the message and its
 * calls on `route`.
 */
export async function playRateLimitMidRun(h: Harness, route: string): Promise<{ message: FeishuMessageSnapshot; calls: FeishuMessageSnapshot['history'] }> {
  const c = faultCase('F01');
  // "FEISHU patch #2 -> 400 {code:230020}"
  h.emulator.faults.add({ route, nth: 2, respond: { status: 400, body: { code: 230020, msg: 'This operation triggers the frequency limit.' } } });
  const card = h.cards.open('feishu');
  const toolStarted = c.events.findIndex((e) => e.type === 'tool.started') + 1;
  await h.play(card, c.events.slice(0, toolStarted));
  await vi.waitFor(() => expect(h.emulator.calls({ route, outcome: 'rejected' })).toHaveLength(1), { timeout: 60_000, interval: 50 });
  await h.play(card, c.events.slice(toolStarted));
  expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  const messages = h.emulator.messages();
  expect(messages).toHaveLength(1);
  const message = messages[0]!;
  const calls = message.history.filter((x) => x.route === route);
  expect(calls[1]).toMatchObject({ outcome: 'rejected', code: 230020 });
  expect(message.card).toMatchObject({ header: { template: 'green' } });
  expect(textOf(message.card, 'answer')).toBe('All tests pass. The parser now accepts trailing commas.');
  const cards = acceptedCards(message);
  for (let i = 1; i < cards.length; i++) expect(notOlder(progressOf(cards[i - 1]), progressOf(cards[i]))).toBe(true);
  return { message, calls };
}

/**
 * F05, content over the limits, with its generated answer (see views.ts), on a card in English:
 * resolves with the final once it is delivered completed and every follow-up has gone out.
 */
export async function playOverLimitAnswer(h: Harness): Promise<FinalDelivery> {
  const events = faultCase('F05').events.map((e) => (e.type === 'answer.delta' ? { ...e, text: f05Answer() } : e));
  const card = h.cards.open('feishu', undefined, { locale: 'en' });
  await h.play(card, events);
  const final = await card.finalDelivery;
  expect(final).toMatchObject({ ok: true, status: 'completed' });
  await h.cards.idle();
  return final;
}

/** Calls `then` with the first message the emulator creates (to aim a fault at that card, as F10 does), once. */
export function onFirstMessage(h: Harness, then: (message: FeishuMessageSnapshot) => void): void {
  const off = h.emulator.onChange((change) => {
    if (change.kind !== 'created') return;
    off();
    then(change.message);
  });
}
