import { afterEach, describe, expect, it, vi } from 'vitest';
import { faultCase, loadFaultCases } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

function cyclic(): Record<string, unknown> {
  const args: Record<string, unknown> = { command: 'make' };
  args.self = args;
  return args;
}
function deep(levels: number): Record<string, unknown> {
  return JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as Record<string, unknown>;
}
const throwingGetter = () => ({ command: 'make', get secret(): string { throw new Error('no access'); } });
const throwingToJson = () => ({ command: 'make', nested: { toJSON(): never { throw new Error('toJSON failed'); } } });

const VARIANTS: ReadonlyArray<readonly [string, () => Record<string, unknown>]> = [
  ['a cyclic object', cyclic],
  ['a BigInt', () => ({ command: 'make', n: 10n })],
  ['an object nested 5 000 levels deep', () => deep(5000)],
  ['an object whose getter throws', throwingGetter],
  ['an object whose toJSON throws', throwingToJson],
];

describe('F21 pushing tool arguments that cannot be serialised', () => {
  const c = faultCase(cases, 'F21');
  it.each(VARIANTS)('%s: push does not throw, the card and another card end completed', async (_name, makeArgs) => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    const other = cards.open('memory');
    other.start({ title: 'other' });
    expect(card.push({ ...c.events[0], at: Date.now() })).toEqual({ accepted: true });
    let result: unknown;
    expect(() => (result = card.push({ type: 'tool.started', callId: 'c1', name: 'x', args: makeArgs() }))).not.toThrow();
    expect(result).toSatisfy((r: { accepted: boolean; reason?: string }) => r.accepted || r.reason === 'invalid');
    expect(card.complete('ok')).toEqual({ accepted: true });
    other.complete('other ok');
    await settle(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(await other.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const finals = [...channel.messages.values()].map((message) => message.history.at(-1)!);
    expect(finals.map((payload) => payload.answer).sort()).toEqual(['ok', 'other ok']);
  });

  it('a cyclic argument shows its readable fields on the card', async () => {
    const { cards } = setup();
    const card = cards.open('memory');
    card.start();
    card.toolStarted('c1', 'shell', cyclic());
    expect(card.view().tools[0]!.detail).toBe('make');
  });
});
