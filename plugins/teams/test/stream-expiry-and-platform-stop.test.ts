import { faultCase, loadFaultCases } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { shownText } from './harness.js';
import { inProcess, type InProcess } from './in-process.js';

// F25 and F27 are copied from the team's shared fault-case set (faults-4); each line names its field reports.
// Fake time, the emulator in process with Teams' documented limits (two-minute streams, per-conversation windows).
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));
const OWNER = { id: '29:1owner', name: 'Owner' };

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const streamsOf = (emulator: InProcess['emulator']) => emulator.activities({ conversationId: BOT.personalChat }).filter((a) => a.stream);

describe('shared stream cases on a Teams 1:1 chat', () => {
  it('F25 an 8-minute quiet tool outlives several stream lives: each stream is closed with its final before its two minutes, the answer and the final show', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat } });
    const card = t.cards.open('teams', undefined, { requester: OWNER });
    await t.play(card, faultCase(cases, 'F25').events as unknown as Record<string, unknown>[]);
    expect(await t.settle(card.finalDelivery)).toMatchObject({ ok: true, status: 'completed' });
    const streams = streamsOf(t.emulator);
    expect(streams.length).toBeGreaterThanOrEqual(2);
    // None was left to time out (Teams ends such a stream without its final message).
    expect(streams.map((s) => s.stream!.state)).toEqual(streams.map(() => 'final'));
    expect(streams.map((s) => s.stream!.text).join('')).toBe('The index is rebuilt: 12k documents, 3 shards.');
    const last = shownText(streams.at(-1)!);
    expect(last).toContain('The index is rebuilt: 12k documents, 3 shards.');
    expect(last).toMatch(/Completed/);
    expect(t.emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
  });

  it('F27 the user presses Teams\' Stop on the stream: the run is cancelled, onStop hears the requester, nothing is re-posted, no refused calls after', async () => {
    t = inProcess({ plugin: { conversationId: BOT.personalChat } });
    const t0 = Date.now(); // script time 0 (the clock is faked: it moves only when the test advances it)
    const card = t.cards.open('teams', undefined, { requester: OWNER });
    const heard: string[] = [];
    card.onStop((by) => void heard.push(by.id));
    const events = faultCase(cases, 'F27').events as unknown as Record<string, unknown>[];
    await t.play(card, events.filter((e) => Number(e.at) < 5_000));
    await t.time.advance(t0 + 5_000 - Date.now());
    const [stream, ...others] = streamsOf(t.emulator);
    expect(others).toEqual([]);
    expect(stream!.stream!.text).toBe('Release 2.4 adds dark mode. ');
    t.emulator.stopStreamByUser(BOT.personalChat, stream!.id);
    const stoppedAt = Date.now();
    await t.play(card, events.filter((e) => Number(e.at) >= 5_000));
    expect(await t.settle(card.finalDelivery)).toMatchObject({ status: 'cancelled' });
    expect(heard).toEqual([OWNER.id]);
    // Nothing re-posted: the stopped stream is the only message, with what it showed at the Stop.
    expect(t.emulator.activities({ conversationId: BOT.personalChat }).map((a) => a.id)).toEqual([stream!.id]);
    expect(t.emulator.activity(BOT.personalChat, stream!.id)!.stream).toMatchObject({ state: 'canceled', text: 'Release 2.4 adds dark mode. ' });
    // At most the one call that learnt of the Stop (refused 403 "canceled by user"); none after it.
    const after = t.emulator.calls().filter((call) => (call.receivedAt ?? call.at) >= stoppedAt);
    expect(after.length).toBeLessThanOrEqual(1);
    await t.time.advance(60_000);
    expect(t.emulator.calls().filter((call) => (call.receivedAt ?? call.at) >= stoppedAt)).toHaveLength(after.length);
  });
});
