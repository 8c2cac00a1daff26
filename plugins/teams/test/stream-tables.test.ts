import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { liveStreamText, settledAnswerText } from '../src/render/stream-text.js';
import { inProcess, type InProcess } from './in-process.js';

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A raw markdown table row or delimiter row, as the chat must never show it. */
const RAW_TABLE_ROW = /^\s*\|.*\|\s*$/m;

// Fault case F28 (an agent's markdown table shown as raw pipes), here in a Teams 1:1 stream: the table
// arrives a row at a time, between prose.
const PIECES = ['Here is the comparison:\n\n', '| Tool | Best for |\n', '|---|---|\n', '| Vitest | Unit tests |\n', '| Playwright | E2E flows |\n', '\nUse Vitest ', 'for the core.'];

describe('Teams 1:1 stream: a markdown table in the answer (emulator in process, fake time)', () => {
  it('no chunk or closing message shows raw table pipes; the table streams as an aligned block once complete, each chunk extending the last', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat } });
    const card = t.cards.open('teams', undefined, { locale: 'en' });
    const events: Record<string, unknown>[] = [{ at: 0, type: 'run.started', title: 'Compare the test runners' }];
    for (const [i, text] of PIECES.entries()) events.push({ at: 1_000 + i * 3_000, type: 'answer.delta', text });
    events.push({ at: 30_000, type: 'run.completed' });
    await t.play(card, events);
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });

    const streamCalls = t.emulator.calls({ route: 'sendToConversation' }).filter((call) => JSON.stringify(call.request ?? {}).includes('streaminfo'));
    const chunks = streamCalls.map((call) => call.request as { type: string; text?: string });
    const streamed = chunks.filter((chunk) => chunk.type === 'typing').map((chunk) => chunk.text ?? '');
    // The stream showed the prose before the table, then the table, while the run went on.
    expect(streamed.some((text) => text.startsWith('Here is the comparison:') && !text.includes('Vitest'))).toBe(true);
    expect(streamed.some((text) => text.includes('Vitest      Unit tests\nPlaywright  E2E flows'))).toBe(true);
    for (const text of streamed) expect(text).not.toMatch(RAW_TABLE_ROW);
    const closing = chunks.find((chunk) => chunk.type === 'message')!;
    expect(closing.text).toContain('Tool        Best for\n----------  ----------\nVitest      Unit tests\nPlaywright  E2E flows');
    expect(closing.text).toContain('Use Vitest for the core.');
    expect(closing.text).not.toMatch(RAW_TABLE_ROW);
    // Teams refuses a chunk that does not carry the text before it (400): none was refused.
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
    const [message] = t.emulator.activities({ conversationId: BOT.personalChat });
    expect(message!.stream).toMatchObject({ state: 'final' });
    expect(message!.text).not.toMatch(RAW_TABLE_ROW);
  });
});

describe('the settled start of a growing answer', () => {
  it('holds back a table until a line after its rows is complete, and a line with a pipe until the next one is in', () => {
    expect(settledAnswerText('Intro\n\n| a | b |')).toBe('Intro\n\n');
    expect(settledAnswerText('Intro\n\n| a | b |\n|---|')).toBe('Intro\n\n');
    expect(settledAnswerText('Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n')).toBe('Intro\n\n');
    expect(settledAnswerText('Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\nAft')).toBe('Intro\n\n');
    expect(settledAnswerText('Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAft')).toBe('Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAft');
    expect(settledAnswerText('Plain prose that streams as it com')).toBe('Plain prose that streams as it com');
  });

  it('every prefix of an answer with tables draws as a prefix of the next longer one and of the whole', () => {
    const answer = 'Intro\n\n| n | name |\n|--:|:--|\n| 1 | 日本 |\n| 22 | x |\n\nBetween.\n\n| k | v |\n| --- | --- |\n| a | b |\n\nThe end.';
    const whole = liveStreamText(`${answer}\n\n`, 'en');
    let before = '';
    for (let end = 0; end <= answer.length; end += 1) {
      const shown = liveStreamText(answer.slice(0, end), 'en');
      expect(shown.startsWith(before), `at ${end}: ${JSON.stringify(shown)} after ${JSON.stringify(before)}`).toBe(true);
      expect(whole.startsWith(shown)).toBe(true);
      expect(shown).not.toMatch(RAW_TABLE_ROW);
      before = shown;
    }
  });
});
