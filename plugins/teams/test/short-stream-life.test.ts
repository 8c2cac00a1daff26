import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { teams, TeamsConfigError } from '../src/index.js';
import { ROOMY_WINDOWS, shownText } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

const OWNER = { id: '29:1owner', name: 'Owner' };

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Twelve answer parts, one every 700 ms, then the run ends; the whole answer. */
async function busyRun(harnessed: InProcess, card: ReturnType<InProcess['cards']['open']>): Promise<string> {
  const events: Record<string, unknown>[] = [{ at: 0, type: 'run.started', title: 'Short streams' }];
  let answer = '';
  for (let i = 0; i < 12; i += 1) {
    answer += `Part ${i}. `;
    events.push({ at: 500 + i * 700, type: 'answer.delta', text: `Part ${i}. ` });
  }
  events.push({ at: 9000, type: 'run.completed' });
  await harnessed.play(card, events);
  return answer;
}

const streamsOf = (emulator: InProcess['emulator']) => emulator.activities({ conversationId: BOT.personalChat }).filter((a) => a.stream);

/**
 * `streaming.lifetimeMs` takes any life from 1 s. With Teams' 1 s per-card interval, a 2 s life leaves
 * a stream its start and one call: before, the core looked no interval ahead at that ratio and left
 * every stream to run out (Teams then refuses its final with 403 "Content stream finished due to
 * exceeded streaming time"). A life that leaves no call after the start is refused at build.
 */
describe('Teams: streams that live two per-card intervals', () => {
  it('a 2 s stream life with the 1 s interval (a chat whose budget does not space calls wider): every stream is closed before Teams ends it, the answer and the final show, nothing refused', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat, streaming: { lifetimeMs: 2000 }, conversationBudget: ROOMY_WINDOWS }, emulator: { limits: { streamLifetimeMs: 2000, personalChatWindows: ROOMY_WINDOWS } } });
    const card = t.cards.open('teams', undefined, { requester: OWNER });
    const answer = await busyRun(t, card);
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const streams = streamsOf(t.emulator);
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams.map((s) => s.stream!.state)).toEqual(streams.map(() => 'final'));
    expect(streams.map((s) => s.stream!.text).join('')).toBe(answer);
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
  });

  it('a 2 s stream life in a 1:1 chat paced at one call per ~2 s (1800 an hour): no stream is opened that could not be stopped; the card is sent and updated, one warning says why', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat, streaming: { lifetimeMs: 2000 } }, emulator: { limits: { streamLifetimeMs: 2000 } } });
    const card = t.cards.open('teams', undefined, { requester: OWNER });
    const answer = await busyRun(t, card);
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    expect(streamsOf(t.emulator)).toEqual([]);
    const messages = t.emulator.activities({ conversationId: BOT.personalChat });
    expect(messages).toHaveLength(1);
    expect(shownText(messages[0]!)).toContain(answer.trim());
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
    expect(t.logger.at('warn').filter((entry) => /could not be stopped in time/.test(entry.message))).toHaveLength(1);
  });

  it('a 1 s stream life with the 1 s interval is refused when the channel is built, naming the interval and the life', () => {
    const build = () => teams({ appId: BOT.appId, appPassword: BOT.appPassword, conversationId: BOT.personalChat, streaming: { lifetimeMs: 1000 } }, { env: {} });
    expect(build).toThrow(TeamsConfigError);
    expect(build).toThrow(/^teams perCardIntervalMs = 1000 .*maxAgeMs 1000/);
    expect(() => teams({ appId: BOT.appId, appPassword: BOT.appPassword, conversationId: BOT.personalChat, streaming: { lifetimeMs: 1000, mode: 'off' } }, { env: {} })).not.toThrow();
  });
});
