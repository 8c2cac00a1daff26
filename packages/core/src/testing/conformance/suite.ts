import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards } from '../../compose.js';
import type { ProgressCard } from '../../runtime/progress-card.js';
import type { ProgressCards } from '../../runtime/progress-cards.js';
import { recordingLogger, type RecordingLogger } from '../recording-logger.js';
import type { ScriptedEvent } from '../play-events.js';
import { CONFORMANCE_CASES, oversizedAnswer, type ConformanceCase } from './cases.js';
import type { ConformanceDriver, ConformanceMessage, ConformancePlatform, ConformanceSetup } from './driver.js';
import { describeStreamConformance } from './stream-suite.js';

/** Short real-time timings: cards move within a few hundred ms, the budget never paces a test. */
const TIMING: ConformanceSetup['timing'] = { tickMs: 100, debounceMs: 100, perCardIntervalMs: 50, budget: [{ limit: 200, intervalMs: 1000 }] };
/** Retry backoff of the composition under test (ms). */
const RETRY = { finalRetryDelaysMs: [100, 200, 400], updateRetryDelaysMs: [100, 200, 400] };
/** How long the suite waits for something the platform should show (ms of wall time; generous for a loaded machine). */
const WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function waitFor<T>(read: () => T | undefined | false, what: string): Promise<T> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Run {
  readonly platform: ConformancePlatform;
  readonly cards: ProgressCards;
  readonly logger: RecordingLogger;
  readonly channel: string;
  open(options?: { requester?: string }): ProgressCard;
  /** Plays a case's events, `scale` times faster than written. */
  play(card: ProgressCard, events: readonly (ScriptedEvent & { at: number })[], scale: number): Promise<void>;
  /** Top-level messages (not continuation parts). */
  main(): ConformanceMessage[];
}

/**
 * The behaviour every channel must have, as a vitest suite run against a plugin through its
 * {@link ConformanceDriver}: the shared field cases (F01 rate limit honoured, F02 one request in
 * flight, F05 oversized content, F06 gone message → a fresh final, F08 one message for a
 * multi-round run), no duplicate final, one failure never silencing other cards, refused credentials
 * stopping the channel with one error, a refused no-op edit being no failure (when the platform
 * refuses those), and — when the driver can click — approve, deny, answer, stop, first click wins
 * and the requester check, and — when the driver can start a streaming platform — stream roll-over
 * and the platform's own Stop (see `describeStreamConformance`). Runs in real time with short timings: name the file `*.e2e.test.ts`.
 *
 * ```ts
 * // test/conformance.e2e.test.ts
 * import { describeChannelConformance } from '@progresscard/core/testing';
 * describeChannelConformance(myPlatformDriver);
 * ```
 * Needs `vitest` (a peer dependency of `@progresscard/core/testing`'s suite).
 */
export function describeChannelConformance(driver: ConformanceDriver): void {
  describe(`channel conformance: ${driver.name}`, () => {
    let open: Run | undefined;
    afterEach(async () => {
      const run = open;
      open = undefined;
      if (!run) return;
      await run.cards.shutdown();
      await run.platform.close();
    });

    async function start(interaction = false): Promise<Run> {
      const platform = await driver.start({ timing: { ...TIMING, budget: TIMING.budget.map((window) => ({ ...window })) }, interaction });
      const logger = recordingLogger();
      const cards = createProgressCards({ channels: [platform.plugin], logger, env: {}, retry: RETRY });
      const channel = platform.plugin.id;
      open = {
        platform,
        cards,
        logger,
        channel,
        open: (options = {}) => cards.open(channel, undefined, { locale: 'en', ...(options.requester ? { requester: { id: options.requester, name: options.requester } } : {}) }),
        async play(card, events, scale) {
          const t0 = Date.now();
          for (const { at, ...event } of events) {
            await sleep(t0 + at / scale - Date.now());
            card.push(event);
          }
        },
        main: () => platform.messages().filter((m) => m.replyTo === undefined),
      };
      return open;
    }

    async function played(run: Run, c: ConformanceCase, scale: number) {
      const card = run.open();
      await run.play(card, c.events, scale);
      const final = await card.finalDelivery;
      await run.cards.idle();
      await polled(run);
      return final;
    }

    /**
     * On a pulling platform, waits until it read every answer given: the plugin's final is done once
     * it answered a poll with it, and the platform reads that answer a moment later.
     */
    async function polled(run: Run) {
      if (run.platform.pull) await run.platform.settled?.();
    }

    it('F08 a multi-round run: one message holds the tools and the answer, the final once', async () => {
      const run = await start();
      const final = await played(run, CONFORMANCE_CASES.F08, 5);
      expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
      const messages = run.main();
      expect(messages).toHaveLength(1);
      expect(messages[0]!.id).toBe(final.message!.id);
      expect(messages[0]!.text).toContain('read_file');
      expect(messages[0]!.text).toContain(CONFORMANCE_CASES.F08.finalText);
      expect(messages[0]!.calls.filter((call) => call.op === 'send')).toHaveLength(1);
      // No duplicate final: nothing more is sent or changed once the card is final.
      const calls = run.platform.messages().reduce((n, m) => n + m.calls.length, 0);
      await sleep(500);
      expect(run.platform.messages().reduce((n, m) => n + m.calls.length, 0)).toBe(calls);
      expect(run.logger.entries.filter((e) => e.level === 'error')).toEqual([]);
    });

    it('F02 a burst of changes: one request in flight, the final shows the latest state', async () => {
      const run = await start();
      const final = await played(run, CONFORMANCE_CASES.F02, 5);
      expect(final).toMatchObject({ ok: true, status: 'completed' });
      expect(run.platform.maxInFlight()).toBe(1);
      expect(run.main()).toHaveLength(1);
      expect(run.main()[0]!.text).toContain(CONFORMANCE_CASES.F02.finalText);
      expect(run.main()[0]!.text).toContain('read_file');
    });

    it('pull: every poll is answered from the latest state, never an older one; the final ends the stream', async (context) => {
      const run = await start();
      if (!run.platform.pull) return context.skip();
      const final = await played(run, CONFORMANCE_CASES.F08, 5);
      expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
      const [message, ...more] = run.main();
      expect(more).toEqual([]);
      const texts = message!.calls.map((call) => call.text);
      expect(texts.every((text) => typeof text === 'string')).toBe(true);
      // Once a poll showed the tool, every later poll shows it: no older state was served after a newer one.
      const toolShown = texts.findIndex((text) => text!.includes('read_file'));
      expect(toolShown).toBeGreaterThanOrEqual(0);
      expect(texts.slice(toolShown).every((text) => text!.includes('read_file'))).toBe(true);
      // The final is the last thing served, and the platform stops asking once it has it.
      expect(texts.findIndex((text) => text!.includes(CONFORMANCE_CASES.F08.finalText))).toBe(texts.length - 1);
      const calls = message!.calls.length;
      await sleep(500);
      expect(run.main()[0]!.calls).toHaveLength(calls);
    });

    it('F01 a rate limit mid-run: the next call waits the time the platform gave, one message, the full answer', async (context) => {
      const run = await start();
      // A pulling platform refuses no update: its pace is its own polls (the pull case above).
      if (run.platform.pull) return context.skip();
      const retryAfterMs = 800;
      run.platform.fail('update', { kind: 'rate-limited', retryAfterMs });
      const final = await played(run, CONFORMANCE_CASES.F01, 10);
      expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
      const [message, ...more] = run.main();
      expect(more).toEqual([]);
      const refused = message!.calls.findIndex((call) => call.refused);
      expect(refused).toBeGreaterThan(0);
      const next = message!.calls[refused + 1]!;
      // Never sooner than the platform said (a lower bound only: a loaded machine may wait longer).
      expect(next.at - message!.calls[refused]!.at).toBeGreaterThanOrEqual(retryAfterMs - 50);
      expect(message!.text).toContain(CONFORMANCE_CASES.F01.finalText);
      expect(message!.text).toContain('All tests pass.');
    });

    it('F06 the message is deleted mid-run: at most one call hits it, the final goes out once as a fresh message', async () => {
      const run = await start();
      const card = run.open();
      const playing = run.play(card, CONFORMANCE_CASES.F06.events, 20);
      const first = await waitFor(() => run.main()[0], 'the first message');
      run.platform.remove(first.id);
      await playing;
      const final = await card.finalDelivery;
      await run.cards.idle();
      await polled(run);
      expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
      const [old, fresh, ...more] = run.main();
      expect(more).toEqual([]);
      const gone = old!.calls.findIndex((call, i) => i > 0 && call.refused);
      if (gone >= 0) expect(old!.calls.length - gone - 1).toBeLessThanOrEqual(1);
      expect(fresh!.id).toBe(final.message!.id);
      expect(fresh!.text).toContain(CONFORMANCE_CASES.F06.finalText);
    });

    it('one failing card never silences the others: each card ends with its own answer', async () => {
      const run = await start();
      const a = run.open();
      const b = run.open();
      a.start({ title: 'A' });
      b.start({ title: 'B' });
      a.toolStarted('a1', 'shell', { command: 'make a' });
      b.toolStarted('b1', 'shell', { command: 'make b' });
      const [first] = await waitFor(() => (run.main().length >= 2 ? run.main() : undefined), 'both messages');
      run.platform.remove(first!.id);
      run.platform.fail('update', { kind: 'transient' });
      await sleep(300);
      a.complete('ANSWER-A');
      b.complete('ANSWER-B');
      const [finalA, finalB] = await Promise.all([a.finalDelivery, b.finalDelivery]);
      await run.cards.idle();
      await polled(run);
      expect(finalA).toMatchObject({ ok: true, status: 'completed' });
      expect(finalB).toMatchObject({ ok: true, status: 'completed' });
      const texts = run.main().map((m) => m.text);
      expect(texts.filter((t) => t.includes('ANSWER-A'))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('ANSWER-B'))).toHaveLength(1);
    });

    it('F05 content over the limits: nothing refused, the whole answer arrives (in continuation parts where needed)', async () => {
      const run = await start();
      const card = run.open();
      card.start({ title: 'Report' });
      card.complete(oversizedAnswer());
      const final = await card.finalDelivery;
      await run.cards.idle();
      await polled(run);
      expect(final).toMatchObject({ ok: true, status: 'completed' });
      const messages = run.platform.messages();
      expect(messages.flatMap((m) => m.calls).filter((call) => call.refused)).toEqual([]);
      expect(messages.map((m) => m.text).join('\n')).toContain('END-OF-ANSWER');
      for (const part of messages.filter((m) => m.replyTo !== undefined)) expect(part.replyTo).toBe(final.message!.id);
    });

    it('refused credentials stop the channel: the final fails at once with one error naming the channel', async (context) => {
      const run = await start();
      // A pulling platform asks the plugin; it never answers a call of the plugin with refused credentials.
      if (run.platform.pull) return context.skip();
      run.platform.fail('send', { kind: 'auth' }, 50);
      run.platform.fail('update', { kind: 'auth' }, 50);
      const card = run.open();
      card.start({ title: 'run' });
      await sleep(300);
      card.complete('done');
      const final = await card.finalDelivery;
      expect(final).toMatchObject({ ok: false, status: 'completed' });
      expect(final.error).toMatch(new RegExp(`^${run.channel} credentials refused`));
      const errors = run.logger.entries.filter((e) => e.level === 'error' && e.message.includes('credentials refused'));
      expect(errors).toHaveLength(1);
    });

    it('an edit the platform refuses as changing nothing is no failure', async (context) => {
      const run = await start();
      if (!run.platform.notModifiedIsRefused) return context.skip();
      run.platform.fail('update', { kind: 'not-modified' });
      const final = await played(run, CONFORMANCE_CASES.F08, 5);
      expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
      expect(run.main()).toHaveLength(1);
      expect(run.main()[0]!.text).toContain(CONFORMANCE_CASES.F08.finalText);
      expect(run.logger.entries.filter((e) => e.level !== 'debug')).toEqual([]);
    });

    describe('card controls (skipped when the driver cannot click)', () => {
      async function interactive(context: { skip: () => void }) {
        const run = await start(true);
        if (!run.platform.click) {
          context.skip();
          return undefined;
        }
        return { run, click: run.platform.click.bind(run.platform) };
      }
      const shown = (run: Run) => waitFor(() => run.main()[0], 'the card');
      /**
       * Waits until the card shows `prompt`: a user reads a request before pressing its buttons. On
       * platforms that acknowledge a click first and edit the card later (Telegram's
       * answerCallbackQuery, Discord's deferred update) the previous request's buttons stay on screen
       * until that edit lands; a press on them is a press on a decided request.
       */
      const showing = (run: Run, prompt: string) => waitFor(() => run.main().find((m) => m.text.includes(prompt)), `the card showing "${prompt}"`);

      it('approve and deny reach the agent', async (context) => {
        const t = await interactive(context);
        if (!t) return;
        const card = t.run.open();
        card.start({ title: 'Deploy' });
        const approved = card.requestApproval({ prompt: 'Run `npm publish`?' });
        const message = await shown(t.run);
        await t.click({ messageId: message.id, user: 'U1', control: { kind: 'approve' } });
        await expect(approved).resolves.toMatchObject({ approved: true, timedOut: false, by: { id: 'U1' } });
        const denied = card.requestApproval({ prompt: 'Drop the table?' });
        await showing(t.run, 'Drop the table?');
        await t.click({ messageId: message.id, user: 'U1', control: { kind: 'deny' } });
        await expect(denied).resolves.toMatchObject({ approved: false, timedOut: false });
      });

      it('a choice answers the question; the first click wins', async (context) => {
        const t = await interactive(context);
        if (!t) return;
        const card = t.run.open();
        card.start({ title: 'Pick' });
        const answer = card.ask({ prompt: 'Which region?', choices: ['eu-west', 'us-east'] });
        const message = await shown(t.run);
        // A double click: both land before either is answered; the first the product handles decides.
        // (Which one that is depends on the platform's delivery and the callback's own checks, e.g. a
        // signature verified per request: on a busy machine the later click can be handled first.)
        await Promise.allSettled([
          t.click({ messageId: message.id, user: 'U1', control: { kind: 'choice', label: 'eu-west' } }),
          sleep(10).then(() => t.click({ messageId: message.id, user: 'U2', control: { kind: 'choice', label: 'us-east' } })),
        ]);
        const decided = await answer;
        expect([
          { text: 'eu-west', by: 'U1' },
          { text: 'us-east', by: 'U2' },
        ]).toContainEqual({ text: decided.text, by: decided.by?.id });
      });

      it('stop ends the card cancelled; only the requester decides', async (context) => {
        const t = await interactive(context);
        if (!t) return;
        const card = t.run.open({ requester: 'U0OWNER' });
        card.start({ title: 'Long job' });
        const stopped = new Promise<string>((resolve) => card.onStop((by) => resolve(by.id)));
        const approved = card.requestApproval({ prompt: 'Continue?' });
        const message = await shown(t.run);
        await t.click({ messageId: message.id, user: 'U0OTHER', control: { kind: 'approve' } });
        const pending = await Promise.race([approved.then(() => 'decided'), sleep(300).then(() => 'pending')]);
        expect(pending).toBe('pending');
        await t.click({ messageId: message.id, user: 'U0OWNER', control: { kind: 'approve' } });
        await expect(approved).resolves.toMatchObject({ approved: true, by: { id: 'U0OWNER' } });
        await t.click({ messageId: message.id, user: 'U0OWNER', control: { kind: 'stop' } });
        await expect(stopped).resolves.toBe('U0OWNER');
        await expect(card.finalDelivery).resolves.toMatchObject({ status: 'cancelled' });
      });
    });

    describeStreamConformance(driver, () => ({ ...TIMING, budget: TIMING.budget.map((window) => ({ ...window })) }), RETRY);
  });
}
