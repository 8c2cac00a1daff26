import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards } from '../../src/index.js';
import { faultCase, loadFaultCases, recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { scriptedPlatform, type PlatformAnswer } from './scripted-platform.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

describe('F20 continuation cards of a long answer that every reply refuses', () => {
  const c = faultCase(cases, 'F20');
  it('finalDelivery is not ok and names the missing parts; an error names the card and the parts', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const refused: PlatformAnswer[] = Array.from({ length: 100 }, () => ({ kind: 'transient' }));
    const platform = scriptedPlatform({ reply: refused }, { answerChunkChars: 10_000, switches: { locale: 'en' } });
    const logger = recordingLogger();
    const cards = createProgressCards({ channels: [platform.plugin], logger, env: {} });
    const card = cards.open('memory');
    card.push({ ...c.events[0], at: Date.now() });
    const answer = Array.from({ length: 850 }, (_, i) => (i % 40 === 0 ? '```js\nconst line = 1;\n```' : `- item ${i}: prose that goes on for a while`)).join('\n');
    expect(answer.length).toBeGreaterThan(25_000);
    card.complete(answer);
    await settle(60_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', error: 'continuation parts 2, 3, 4 of 4 undeliverable', continuations: { delivered: 0, total: 3 } });
    const entry = logger.entries.find((e) => e.message === 'final continuation parts undeliverable: every retry failed');
    expect(entry?.fields).toMatchObject({ card: expect.stringContaining(card.id.slice(0, 20)), parts: [2, 3, 4] });
    // What the chat shows: the card alone, its answer cut before the parts that never came, ending
    // with how much was not delivered (no pointer at follow-up messages).
    expect([...platform.channel.messages.values()].filter((m) => m.replyTo)).toEqual([]);
    const [main] = platform.mainMessages();
    const shown = main!.history.at(-1)!;
    expect(shown.status).toBe('completed');
    expect(shown.answer.startsWith(answer.slice(0, 5000))).toBe(true);
    const dropped = Number(/The rest of this answer \((\d+) characters\) could not be delivered/.exec(shown.answer)?.[1]);
    const kept = shown.answer.slice(0, shown.answer.lastIndexOf('\n\n⚠️'));
    // The cut ends at a line break, and closes the code block it would leave open.
    expect(answer.startsWith(kept.replace(/\n```$/, ''))).toBe(true);
    expect(dropped).toBe(answer.length - kept.replace(/\n```$/, '').length);
    expect((kept.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it('a part delivered before the refusals stays: the card keeps pointing at it, the last delivered part says what is missing', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // part 2 gets through, every later reply is refused
    const platform = scriptedPlatform({ reply: [{ kind: 'ok' }, ...Array.from({ length: 100 }, (): PlatformAnswer => ({ kind: 'transient' }))] }, { answerChunkChars: 300, switches: { locale: 'en' } });
    const cards = createProgressCards({ channels: [platform.plugin], logger: recordingLogger(), env: {} });
    const card = cards.open('memory');
    const answer = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(2, '0')} of the answer`).join('\n');
    card.complete(answer);
    await settle(60_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, error: 'continuation part 3 of 3 undeliverable', continuations: { delivered: 1, total: 2 } });
    const parts = [...platform.channel.messages.values()].filter((m) => m.replyTo);
    expect(parts).toHaveLength(1);
    const [main] = platform.mainMessages();
    expect(main!.history.at(-1)!.answer).toBe(answer.slice(0, 300));
    // part 2 was updated to end with the notice: nothing after it is promised
    const part2 = parts[0]!.history.at(-1)!.answer;
    expect(part2.startsWith(answer.slice(300, 340))).toBe(true);
    expect(part2).toMatch(/\n\n⚠️ The rest of this answer \(\d+ characters\) could not be delivered/);
    expect(part2.length).toBeLessThanOrEqual(300);
  });

  it('parts that fail and then get through are delivered within the final retries: ok', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = scriptedPlatform({ reply: [{ kind: 'transient' }, { kind: 'transient' }] }, { answerChunkChars: 10 });
    const cards = createProgressCards({ channels: [platform.plugin], env: {}, logger: recordingLogger() });
    const card = cards.open('memory');
    card.complete('0123456789abcdefghij');
    await settle(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, continuations: { delivered: 1, total: 1 } });
  });
});
