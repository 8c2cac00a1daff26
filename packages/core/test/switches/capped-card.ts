/**
 * What the per-message call cap tests share: a card on the in-memory channel whose messages may
 * take `runCallCap` 10 calls, the calls the channel received, its native streams, and a long
 * streamed answer.
 */
import type { MemoryChannelOptions, OpenCardOptions, ProgressCard } from '../../src/index.js';
import { settle, setup } from '../helpers.js';

/** The cap every test here uses: calls one message may take, the final's included. */
export const CALL_CAP = 10;

/**
 * Starts a card titled `title` on a channel with `runCallCap` {@link CALL_CAP} (fake timers on).
 * @returns the channel and composition, the card, the calls the channel received (failed ones left
 *   out) and the native streams of its messages, read when called.
 */
export function cappedCard(title: string, options: { readonly streaming?: MemoryChannelOptions['streaming']; readonly open?: OpenCardOptions } = {}) {
  const { channel, cards } = setup({ switches: { runCallCap: CALL_CAP }, ...(options.streaming ? { streaming: options.streaming } : {}) });
  const card: ProgressCard = cards.open('memory', undefined, options.open);
  card.start({ title });
  const received = () => channel.calls.filter((call) => !call.failure);
  const streams = () => [...channel.messages.values()].filter((message) => message.stream).map((message) => message.stream!);
  return { channel, cards, card, received, streams };
}

/** A tool call that runs ten minutes (`sleep 600`): its ticks spend the card's calls up to the one kept for the final. */
export async function tenMinuteTool(card: ProgressCard): Promise<void> {
  card.toolStarted('c1', 'shell', { command: 'sleep 600' });
  await settle(600_000);
}

/** Streams `count` answer sentences (`Sentence 0. `, …), one every 5 s; returns the whole answer. */
export async function streamSentences(card: ProgressCard, count: number): Promise<string> {
  let answer = '';
  for (let i = 0; i < count; i += 1) {
    const sentence = `Sentence ${i}. `;
    answer += sentence;
    card.answer(sentence);
    await settle(5000);
  }
  return answer;
}
