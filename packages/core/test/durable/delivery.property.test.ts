import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, DEFAULT_RETRY_SETTINGS, isTerminalStatus, silentLogger, type FinalDelivery, type MemoryPayload } from '../../src/index.js';
import { scriptedPlatform, type PlatformAnswer } from './scripted-platform.js';

/** Random runs in all (CI runs the unit project, so at least 2 000); `PROPERTY_RUNS` overrides. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);
/**
 * A fixed seed, so CI is deterministic: with a new seed each run, a known bug (below) made about one
 * CI run in two red. `PROPERTY_SEED` explores other seeds.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261130);

afterEach(() => vi.useRealTimers());

type Step =
  | { readonly kind: 'tool'; readonly call: number }
  | { readonly kind: 'finish'; readonly call: number }
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'thinking' }
  | { readonly kind: 'round'; readonly round: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('tool' as const), call: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('finish' as const), call: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('answer' as const), text: fc.constantFrom('Looking. ', 'Found it. ', 'A longer sentence of the answer that spans more. ') }),
  fc.record({ kind: fc.constant('thinking' as const) }),
  fc.record({ kind: fc.constant('round' as const), round: fc.integer({ min: 1, max: 3 }) }),
);

/** Platform answers; `okWeight` against 1 for each kind of trouble (refusals, late-applied calls). */
const answerArb = (okWeight: number): fc.Arbitrary<PlatformAnswer> =>
  fc.oneof(
    { weight: okWeight, arbitrary: fc.constant({ kind: 'ok' } as const) },
    { weight: 1, arbitrary: fc.constantFrom<PlatformAnswer>({ kind: 'rate-limited' }, { kind: 'transient' }, { kind: 'lost' }, { kind: 'gone' }, { kind: 'rejected' }, { kind: 'hang' }) },
    // Late calls land within the late-apply window (10 s after the failure, latency included): the model's assumption.
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 9_000 }).map((lateMs): PlatformAnswer => ({ kind: 'late', lateMs })) },
  );

/** A run: events, its ending, and how the platform answers (`maxAnswers` scripted, then ok). */
const scenarioOf = (okWeight: number, maxAnswers: number) =>
  fc.record({
    steps: fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), step), { maxLength: 12 }),
    ending: fc.constantFrom('completed', 'failed', 'cancelled', 'shutdown'),
    answers: fc.array(answerArb(okWeight), { maxLength: maxAnswers }),
    latencyMs: fc.constantFrom(0, 0, 50, 400),
    /** Long answers become continuation parts. */
    chunkChars: fc.constantFrom(undefined, undefined, 60),
  });

/**
 * The harsher platform of the fault matrix: token expiries (the plugin refreshes), runs of 5xx up to
 * 40 calls long (a final inside one climbs its whole ladder), and calls applied late anywhere up to
 * the late-apply window (`DEFAULT_RETRY_SETTINGS.lateApplyWindowMs`, counted from the failure, the
 * call's latency included), besides every answer of {@link answerArb}.
 */
const harsherAnswerArb = (latencyMs: number): fc.Arbitrary<PlatformAnswer> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'ok' } as const) },
    { weight: 1, arbitrary: fc.constantFrom<PlatformAnswer>({ kind: 'rate-limited' }, { kind: 'transient' }, { kind: 'lost' }, { kind: 'gone' }, { kind: 'rejected' }, { kind: 'hang' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'expired' } as const) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 40 }).map((calls): PlatformAnswer => ({ kind: 'outage', calls })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: DEFAULT_RETRY_SETTINGS.lateApplyWindowMs - latencyMs }).map((lateMs): PlatformAnswer => ({ kind: 'late', lateMs })) },
  );

const harsherScenario = fc.constantFrom(0, 0, 50, 400).chain((latencyMs) =>
  fc.record({
    steps: fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), step), { maxLength: 12 }),
    ending: fc.constantFrom('completed', 'failed', 'cancelled', 'shutdown', 'shutdown'),
    answers: fc.array(harsherAnswerArb(latencyMs), { maxLength: 30 }),
    latencyMs: fc.constant(latencyMs),
    chunkChars: fc.constantFrom(undefined, undefined, 60),
  }),
);

/**
 * Seeds of the harsher runs: `HARSHER_RUNS` split over them, so they cover several independent
 * streams rather than one long one. The default (600, under 30 s on a loaded 2-core machine) is
 * part of the normal suite; HARSHER_RUNS=10000 (about 4 minutes) passes on every seed.
 */
const HARSHER_SEEDS = [20261201, 7, 334132435, 99991663];
const HARSHER_RUNS = Number(process.env.HARSHER_RUNS ?? 600);

/** A mostly healthy platform: four answers in six are ok. */
const scenario = scenarioOf(4, 14);
/** A platform in trouble: one answer in three is ok, longer scripts. */
const harshScenario = scenarioOf(1, 30);

/** Plays one scenario; returns the chat, the report and what the composition still holds. */
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function play(s: Scenario) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const platform = scriptedPlatform({ any: s.answers }, { latencyMs: s.latencyMs, answerChunkChars: s.chunkChars });
  const cards = createProgressCards({ channels: [platform.plugin], logger: silentLogger, env: {} });
  const card = cards.open('memory');
  let final: FinalDelivery | undefined;
  void card.finalDelivery.then((result) => (final = result));
  card.start({ title: 'property' });
  for (const [wait, event] of s.steps) {
    await vi.advanceTimersByTimeAsync(wait);
    if (event.kind === 'tool') card.toolStarted(`c${event.call}`, 'shell', { command: `step ${event.call}` });
    else if (event.kind === 'finish') card.toolFinished(`c${event.call}`, 'ok');
    else if (event.kind === 'answer') card.answer(event.text);
    else if (event.kind === 'thinking') card.thinking('considering');
    else card.roundStarted(event.round);
  }
  let shutDown = false;
  let shutdownReport: FinalDelivery | undefined;
  let callsAtShutdown = 0;
  if (s.ending === 'completed') card.complete('FINAL-ANSWER');
  else if (s.ending === 'failed') card.fail('FINAL-ERROR');
  else if (s.ending === 'cancelled') card.cancel('FINAL-REASON');
  // Shutdown at the default deadline (8 s), as a product's SIGTERM handler calls it.
  const done =
    s.ending === 'shutdown'
      ? cards.shutdown().then(([report]) => {
          shutDown = true;
          shutdownReport = report;
          callsAtShutdown = platform.callsMade();
        })
      : card.finalDelivery;
  for (let i = 0; i < 400 && final === undefined; i++) await vi.advanceTimersByTimeAsync(1000);
  await done;
  // Whatever the platform may still apply late lands now.
  for (let i = 0; i < 40 && platform.lateCalls() > 0; i++) await vi.advanceTimersByTimeAsync(1000);
  if (!shutDown) await cards.shutdown({ deadlineMs: 600_000 });
  if (s.ending === 'shutdown') {
    // shutdown() reports what finalDelivery says, and no call is made after it resolved (a call made
    // before may still be applied late: the platform holds it).
    expect(final).toEqual(shutdownReport);
    expect(platform.callsMade()).toBe(callsAtShutdown);
  }
  return { platform, card, final, cards };
}

function shown(message: { history: MemoryPayload[] }): MemoryPayload | undefined {
  return message.history.at(-1);
}

/** Plays one scenario and checks the invariants. */
async function checkRun(s: Parameters<typeof play>[0]): Promise<void> {
  const { platform, card, final, cards } = await play(s);
  expect(final).toBeDefined();
  const finalView = card.view();
  const expected = platform.plugin.renderer.render(finalView);
  const visible = platform.mainMessages().filter((message) => !message.gone && message.history.length > 0);
  const showingFinal = visible.filter((message) => {
    const last = shown(message)!;
    return isTerminalStatus(last.status) && last.answer === expected.answer && last.tools.join() === expected.tools.join();
  });
  // At most one message ever shows the final, exactly one when it was delivered.
  expect(showingFinal.length).toBeLessThanOrEqual(1);
  if (final!.ok && !final!.skipped) {
    expect(showingFinal).toHaveLength(1);
    // The report names the message that shows it.
    expect(final!.message?.id).toBe(showingFinal[0]!.id);
    // Nothing older than the final shows last on its message.
    expect({ ...shown(showingFinal[0]!)!, format: 'any' }).toEqual({ ...expected, format: 'any' });
    // No message is left running.
    for (const message of visible) expect(shown(message)!.status, `message ${message.id}`).not.toMatch(/running|waiting/);
    expect(final!.continuations.delivered).toBe(final!.continuations.total);
  }
  // No timer is left, nothing in flight.
  expect(cards.diagnostics()).toEqual({ openCards: 0, tickingCards: 0, tickTimers: 0, wakeTimers: 0, pendingCards: 0, inFlight: 0, channelsAtBudget: 0 });
  expect(vi.getTimerCount()).toBe(0);
  vi.useRealTimers();
}

describe('delivery properties over random events and random platform answers', () => {
  it(`exactly one final shows, nothing is left running, nothing older shows last, no timer is left (${RUNS} runs)`, async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await fc.assert(
        fc.asyncProperty(scenario, checkRun),
        { numRuns: RUNS, seed: SEED },
      );
    } finally {
      process.off('unhandledRejection', onRejection);
      vi.useRealTimers();
    }
    expect(rejections).toEqual([]);
  }, 600_000);

  it(`the same on a platform in trouble, where most calls fail or land late (${Math.ceil(RUNS / 4)} runs)`, async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await fc.assert(fc.asyncProperty(harshScenario, checkRun), { numRuns: Math.ceil(RUNS / 4), seed: SEED });
    } finally {
      process.off('unhandledRejection', onRejection);
      vi.useRealTimers();
    }
    expect(rejections).toEqual([]);
  }, 600_000);

  it.each(HARSHER_SEEDS.map((seed) => ({ seed, runs: Math.ceil(HARSHER_RUNS / HARSHER_SEEDS.length) })))(
    'the same on the harsher platform: token expiries, long 5xx runs, late applies up to the window, shutdown at the default deadline (seed $seed, $runs runs)',
    async ({ seed, runs }) => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        await fc.assert(fc.asyncProperty(harsherScenario, checkRun), { numRuns: runs, seed });
      } finally {
        process.off('unhandledRejection', onRejection);
        vi.useRealTimers();
      }
      expect(rejections).toEqual([]);
    },
    900_000,
  );

  it.each([
    [{"steps":[[0,{"kind":"round","round":1}]],"ending":"shutdown","answers":[{"kind":"ok"},{"kind":"expired"},{"kind":"expired"},{"kind":"hang"}],"latencyMs":50,"chunkChars":undefined}],
    [{"steps":[[0,{"kind":"thinking"}]],"ending":"shutdown","answers":[{"kind":"ok"},{"kind":"expired"},{"kind":"expired"},{"kind":"hang"}],"latencyMs":50,"chunkChars":undefined}],
  ])('the harsher platform\'s shrunk counterexamples: shutdown while a credential probe\'s call hangs leaves no probe timer (%#)', async (s) => {
    // Found by seeds 20261201 and 99991663 at 10 000 runs: the probe's call answered after shutdown
    // had disposed of the credential probes, and the card waiting again scheduled a probe timer
    // that nothing cleared.
    await checkRun(s as never);
  });

  it.each([
    [{"steps":[[0,{"kind":"tool","call":1}]],"ending":"completed","answers":[{"kind":"hang"},{"kind":"ok"},{"kind":"ok"},{"kind":"late","lateMs":1},{"kind":"transient"},{"kind":"ok"},{"kind":"outage","calls":8}],"latencyMs":0,"chunkChars":undefined}],
    [{"steps":[],"ending":"completed","answers":[{"kind":"late","lateMs":1},{"kind":"ok"},{"kind":"outage","calls":2},{"kind":"ok"},{"kind":"ok"},{"kind":"expired"}],"latencyMs":400,"chunkChars":undefined}],
    [{"steps":[[0,{"kind":"thinking"}]],"ending":"completed","answers":[{"kind":"late","lateMs":1},{"kind":"ok"},{"kind":"late","lateMs":1},{"kind":"ok"},{"kind":"transient"},{"kind":"ok"},{"kind":"expired"}],"latencyMs":50,"chunkChars":undefined}],
    [{"steps":[],"ending":"completed","answers":[{"kind":"late","lateMs":1},{"kind":"rate-limited"},{"kind":"ok"},{"kind":"late","lateMs":1},{"kind":"ok"},{"kind":"outage","calls":8}],"latencyMs":50,"chunkChars":undefined}],
    [{"steps":[],"ending":"completed","answers":[{"kind":"gone"},{"kind":"rate-limited"},{"kind":"ok"},{"kind":"transient"},{"kind":"ok"},{"kind":"outage","calls":8}],"latencyMs":400,"chunkChars":undefined}],
  ])('the harsher platform\'s shrunk counterexamples: a final re-asserted after late calls stays on its message (%#)', async (s) => {
    // Found by seeds 7, 334132435 and 99991663: the message showed the final, a later try of it (a
    // re-assert after late calls, an update after an uncertain send) met a 5xx run, the final climbed
    // to a fresh message, and the clean-up of the first one gave up within the same run: two
    // messages showed the final.
    await checkRun(s as never);
  });

  // Found by seeds 334132435 and 99991663 of the harsher runs: the message was created holding the
  // final, the update sent once more after the uncertain send met a 5xx run longer than the final's
  // ladder and the clean-up's retries together, so the final moved to a fresh message and the first
  // one kept showing it too. A final its message accepted now stays on it.
  it('a 5xx run outlasting the final\'s ladder and the clean-up: the final accepted on its message stays there', async () => {
    await checkRun({
      steps: [],
      ending: 'completed',
      answers: [{ kind: 'gone' }, { kind: 'rate-limited' }, { kind: 'ok' }, { kind: 'transient' }, { kind: 'ok' }, { kind: 'outage', calls: 16 }],
      latencyMs: 400,
      chunkChars: undefined,
    } as Parameters<typeof play>[0]);
  });

  // Found by seed 334132435 and shrunk: the final moves to a fresh message whose sends all time out
  // and are applied late, so the final is given up while the fresh message shows it; the first
  // message (which took the final late too) must be closed, or two messages show the final.
  it('late-applied answers around rate limits leave one message showing the final (seed 334132435, shrunk)', async () => {
    await checkRun({
      steps: [],
      ending: 'completed',
      answers: [
        { kind: 'late', lateMs: 1 },
        { kind: 'ok' },
        { kind: 'rate-limited' },
        { kind: 'transient' },
        { kind: 'rate-limited' },
        { kind: 'late', lateMs: 1 },
        { kind: 'late', lateMs: 1 },
        { kind: 'late', lateMs: 1 },
      ],
      latencyMs: 0,
      chunkChars: undefined,
    } as Parameters<typeof play>[0]);
  });
});
