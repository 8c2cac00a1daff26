import { createProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOMY_WINDOWS, teamsOn } from './harness.js';

let emulator: TeamsEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** An answer of about `chars` characters: numbered words, so any lost, repeated or reordered piece shows. */
function longAnswer(chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i += 1) {
    const word = `w${i}${i % 40 === 39 ? '.\n\n' : ' '}`;
    words.push(word);
    length += word.length;
  }
  return words.join('').trimEnd();
}

/** The answer's words as the chat shows them (part labels and notices are not numbered words). */
const wordsOf = (text: string) => text.match(/\bw\d+\b/g) ?? [];

describe('Teams 1:1 stream with a long answer (emulator over loopback)', { timeout: 60_000 }, () => {
  it.each([12_000, 30_000])('a %i-character answer: the stream closes with the card share, the rest follows as replies, the final is ok', async (chars) => {
    emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS } });
    const logger = recordingLogger();
    const cards = createProgressCards({
      channels: [teamsOn(emulator, { tickMs: 100, debounceMs: 100, perCardIntervalMs: 50, conversationBudget: ROOMY_WINDOWS, conversationId: DEFAULT_TEAMS_BOT.personalChat })],
      logger,
      env: {},
    });
    const answer = longAnswer(chars);
    const card = cards.open('teams', undefined, { locale: 'en' });
    card.start({ title: 'Report' });
    card.toolStarted('t1', 'shell', { command: 'make report' });
    const chat = () => emulator!.activities({ conversationId: DEFAULT_TEAMS_BOT.personalChat });
    for (let i = 0; i < 200 && chat().length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    card.toolFinished('t1', 'ok');
    // The answer streams in pieces, then the run completes.
    for (let at = 0; at < answer.length; at += 3000) {
      card.answer(answer.slice(at, at + 3000));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    card.complete();
    const final = await card.finalDelivery;
    await cards.shutdown();
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(final.continuations.total).toBeGreaterThan(0);
    expect(final.continuations.delivered).toBe(final.continuations.total);

    const activities = chat();
    const streamMessage = activities.find((a) => a.stream);
    expect(streamMessage).toBeDefined();
    const replies = activities.filter((a) => a.replyToId === streamMessage!.id).sort((a, b) => a.createdAt - b.createdAt);
    expect(replies).toHaveLength(final.continuations.total);
    // Every word of the answer, once and in order, across the stream's final message and its replies.
    const shown = [streamMessage!.text, ...replies.map((reply) => reply.text)].flatMap(wordsOf);
    expect(shown).toEqual(wordsOf(answer));
    const refusals = emulator.calls().filter((call) => call.outcome === 'rejected');
    expect(refusals.map((call) => call.msg)).toEqual([]);
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
