import { InMemoryBudgetStore, TOKENS, appPool, createContainer, createProgressCards, silentLogger, type CardTransport, type ProgressCardsStore, type ChannelPlugin, type ProgressCards } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { teams } from '@progresscard/plugin-teams';
import { telegram } from '@progresscard/plugin-telegram';
import { NaiveCard } from './naive.js';
import { PThrottleBudgetStore } from './p-throttle-store.js';
import { observedTransport, type EmulatorProcess } from './http-platform.js';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { GateRoute } from './gates.js';
import { p99FloorMs } from './floors.js';
import { PlatformModel, type ChannelName, type PlatformCall } from './platform.js';
import type { ScheduleTrace } from './schedule-trace.js';
import { StalenessTracker, percentile } from './tracker.js';
import type { VirtualTime } from './virtual-time.js';
import { runsPerChat, type RunScript } from './workload.js';

/**
 * `progresscard`: the product as shipped. `p-throttle`: the same core with its budget store replaced
 * by p-throttle (strict, the app's windows as documented, one process; {@link PThrottleBudgetStore}).
 * `naive`: every event pushes, 250 ms per-card throttle, no shared budget ({@link NaiveCard}).
 */
export type Design = 'progresscard' | 'p-throttle' | 'naive';

/** Every design, in column order. */
export const DESIGNS: readonly Design[] = ['progresscard', 'p-throttle', 'naive'];

/** The figures of one design at one point (times in ms). */
export interface PointResult {
  readonly design: Design;
  readonly channel: ChannelName;
  readonly workload: string;
  readonly n: number;
  readonly seed: number;
  /**
   * Apps (bots) the channel runs, each with its own credentials and limits (`appPool`, cards sticky
   * per chat); the bound counts their summed rate.
   */
  readonly apps: number;
  /** With several apps: the busiest app's runs over the mean per app (1 = evenly spread). */
  readonly busiestAppShare?: number;
  readonly calls: number;
  readonly rejections: Readonly<Record<string, number>>;
  readonly staleness: {
    readonly tool: Percentiles;
    /** Tool changes pushed to cards the chat already showed (the others wait for their card's first message, on the send route). */
    readonly toolOnShownCard: Percentiles;
    readonly firstCard: Percentiles;
    readonly answer: Percentiles;
  };
  /**
   * max(per-card interval, dirty cards ÷ sustained app budget, min(dirty cards, runs per chat) ÷
   * one chat's sustained budget), dirty cards = p99, over every pushed event, of the cards with a
   * real change the chat does not show yet (a tool start or finish, answer text, a first card or a
   * final; not a tick, not a call in flight with nothing new): about the best any design can do.
   */
  readonly boundMs: number;
  /**
   * The bound of earlier rounds, for comparison: the same formula with dirty cards = p99 of the
   * product's own `pendingCards` (which count cards with only a 3 s tick pending and cards whose
   * call is in flight) sampled while a channel was at its budget. It flatters: it is larger.
   */
  readonly productBoundMs: number;
  /**
   * Several apps: the bound with the dirty cards counted on the app of the run that pushed each
   * event, at one app's rate. Cards stay on their chat's app (`appPool`), so a change competes
   * only with its app's cards; where chats spread unevenly (`busiestAppShare`), the busier apps'
   * changes wait longer than the bound of evenly spread apps (`boundMs`) for any design.
   */
  readonly appBoundMs?: number;
  /** Tool and first-card staleness p99 over {@link appBoundMs}. */
  readonly ratioToAppBound?: { readonly tool: number; readonly firstCard: number };
  /** Tool and first-card staleness p99 over the bound (and over the product's bound). */
  readonly ratioToBound: { readonly tool: number; readonly firstCard: number };
  readonly ratioToProductBound: { readonly tool: number; readonly firstCard: number };
  /**
   * Accepted calls of the busier API route (send or update) during the 250 ms samples at both ends
   * of which some card had a real change not shown yet, whatever held it (budget, per-card
   * interval, text debounce, a call in flight), over that route's sustained budget for that time.
   */
  readonly budgetUsedWhileWaiting: number;
  /** The same, counting only the samples at both ends of which a channel was at its budget (earlier rounds' figure; naive: a card waited). */
  readonly budgetUsedAtBudget: number;
  readonly final: Percentiles;
  /**
   * The least first-card and final p99 any design could reach, from counting the new messages each
   * app's send route can carry (see floors.ts); absent where the bench has no send windows (Feishu,
   * DingTalk have them).
   */
  readonly floors?: { readonly firstCardMs: number; readonly finalMs: number };
  /**
   * Finals of runs that ended before their first card showed (their final is the card's first
   * message, on the send route): how many, and their p99.
   */
  readonly finalsBeforeFirstCard: { readonly count: number; readonly p99: number };
  /** Runs whose final never showed. */
  readonly finalsMissing: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  /** Simulated (or real) ms the point took. */
  readonly durationMs: number;
  /** Real time: this process's event-loop delay over the point, ms: how late a 20 ms timer fired (`perf_hooks.monitorEventLoopDelay`). */
  readonly eventLoopDelayMs?: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Real time: the machine's 1-minute load average at the point's end, and whether calls went over HTTP to the emulator. */
  readonly loadAverage?: number;
  readonly transport?: 'model' | 'http';
}

interface Percentiles {
  readonly p50: number;
  readonly p99: number;
}

const LOOP_DELAY_RESOLUTION_MS = 20;

/** How time passes: simulated (virtual timers) or real. */
export interface TimeDriver {
  readonly virtual?: VirtualTime;
  readonly realImmediate: (fn: () => void) => void;
  /** Longest a point may take, ms. */
  readonly limitMs: number;
  /** Real time only: the emulator the real plugin calls over loopback HTTP (absent: the in-process platform model). */
  readonly emulator?: EmulatorProcess;
  /** A shared store (Redis) for the core's budgets and cards, as a multi-process deployment has (progresscard design only). */
  readonly store?: ProgressCardsStore;
  /** Notes where each tool change waits (progresscard design, synthetic runs; see {@link ScheduleTrace}). */
  readonly trace?: ScheduleTrace;
}

const PER_CARD_INTERVAL_MS: Record<ChannelName, number> = { feishu: 250, dingtalk: 500, 'telegram-private': 1000, 'telegram-group': 1000, discord: 1000, 'discord-shifting': 1000, slack: 1000, 'slack-stream': 1000, 'teams-group': 1000, 'teams-personal': 1000 };

/** Channels the bench runs over several apps: their budget keys name the app by its credentials. */
export const MULTI_APP_CHANNELS: readonly ChannelName[] = ['feishu', 'dingtalk'];

function basePlugin(channel: ChannelName, emulator?: EmulatorProcess, app = 1): ChannelPlugin {
  if (emulator && channel !== 'feishu') throw new Error(`--real-time runs over HTTP against the Feishu emulator only; channel ${JSON.stringify(channel)} has no emulator wired in the bench`);
  switch (channel) {
    case 'feishu':
      if (emulator) return feishu({ appId: emulator.appId, appSecret: emulator.appSecret, domain: emulator.baseUrl, receiveId: 'oc_default' }) as ChannelPlugin;
      return feishu({ appId: app === 1 ? 'cli_bench' : `cli_bench${app}`, appSecret: 'bench-secret', receiveId: 'oc_default' }) as ChannelPlugin;
    case 'dingtalk':
      return dingtalk({ appKey: app === 1 ? 'ding_bench' : `ding_bench${app}`, appSecret: 'bench-secret', cardTemplateId: 'bench.schema', target: { type: 'group', openConversationId: 'cid' } }) as ChannelPlugin;
    case 'telegram-private':
      // A user's private chat (a positive id): the answer streams as a draft below the card.
      return telegram({ botToken: '123456:BENCH-bench1234benchBench12345bench', chatId: 1000 }, { env: {} }) as ChannelPlugin;
    case 'telegram-group':
      return telegram({ botToken: '123456:BENCH-bench1234benchBench12345bench', chatId: -1001000 }, { env: {} }) as ChannelPlugin;
    case 'discord':
    case 'discord-shifting':
      return discord({ botToken: 'bench.discord.bot-token-0000', channelId: '1250000000000000100' }, { env: {} }) as ChannelPlugin;
    case 'slack':
    case 'slack-stream':
      // One workspace (one bot token): its chat.update and stream budgets are shared by every card.
      return slack({ botToken: 'xoxb-bench', channel: 'C0BENCH', streaming: { mode: 'native', teamId: 'T0BENCH' } }, { env: {} }) as ChannelPlugin;
    case 'teams-group':
    case 'teams-personal':
      // One bot: the app's 30 a second shared by every card; each conversation's windows by its own key.
      return teams({ appId: 'bench-app', appPassword: 'bench-secret', conversationId: channel === 'teams-personal' ? 'a:bench0' : '19:bench0@thread.v2' }, { env: {} }) as ChannelPlugin;
  }
}

/** The platform's id of a workload chat: Telegram private chats are users (positive ids), groups negative. */
function chatIdOf(channel: ChannelName, chat: string): string {
  const index = Number(chat.replace(/\D/g, ''));
  if (channel === 'telegram-private') return String(1000 + index);
  if (channel === 'telegram-group') return `-100${1000 + index}`;
  if (channel === 'feishu') return `oc_bench${index}`;
  if (channel === 'teams-personal') return `a:bench${index}`;
  if (channel === 'teams-group') return `19:bench${index}@thread.v2`;
  return chat;
}

/**
 * Runs `runs` through one design against the platform model and measures. `givenBound` (the
 * progresscard run's bounds) makes every design of a point compare against the same bound.
 */
export async function runPoint(
  design: Design,
  channel: ChannelName,
  workload: string,
  runs: readonly RunScript[],
  seed: number,
  time: TimeDriver,
  givenBound?: Pick<PointResult, 'boundMs' | 'productBoundMs' | 'appBoundMs'>,
  apps = 1,
): Promise<PointResult> {
  if (apps > 1 && (time.emulator || !MULTI_APP_CHANNELS.includes(channel))) throw new Error(`--apps ${apps}: several apps run on simulated time for ${MULTI_APP_CHANNELS.join(', ')} only, got ${channel}${time.emulator ? ' over HTTP' : ''}`);
  const tracker = new StalenessTracker(runs.length);
  const trace = time.trace;
  const onAccepted = (payload: unknown, at: number, target: unknown) => {
    trace?.accepted((target as { run: number }).run, payload, at);
    tracker.accepted((target as { run: number }).run, payload, at);
  };
  // One platform model per app (its own windows), logging to one list.
  const model = new PlatformModel(channel, seed, onAccepted);
  const models = [model, ...Array.from({ length: apps - 1 }, (_, i) => new PlatformModel(channel, seed + 7919 * (i + 1), onAccepted, undefined, model.calls))];
  const base = basePlugin(channel, time.emulator);
  const renderer = tracker.wrap(trace ? trace.wrap(base.renderer) : base.renderer);
  const chatOf = (target: unknown) => (target as { receiveId: string }).receiveId;
  // Over HTTP the plugin's own transport calls the emulator; its outcomes are logged where the model logs its calls.
  const calls: PlatformCall[] = time.emulator ? [] : model.calls;
  const platformTransport = time.emulator ? observedTransport(base.transport as CardTransport<unknown, unknown>, calls, onAccepted) : model.transport(chatOf);
  const transport = trace ? trace.wrapTransport(platformTransport) : platformTransport;
  // Slack streams cards that reply in a thread to their requester: the stream calls go to the model too.
  const streamed = channel === 'slack-stream' || channel === 'teams-personal';
  const streaming =
    streamed && base.streaming
      ? { streaming: { ...base.streaming, transport: model.streamTransport(chatOf, base.streaming.text, (target, shown, at) => tracker.acceptedShown((target as { run: number }).run, shown, at)) } }
      : {};
  const budgetKeys = time.emulator ? base.budgetKeys?.bind(base) : (model.gate.budgetKeys ?? base.budgetKeys?.bind(base));
  // Each further app: its own credentials (so its own budget keys) and its own platform model.
  const members = [
    { ...base, renderer, transport, ...streaming, ...(budgetKeys ? { budgetKeys } : {}) },
    ...models.slice(1).map((appModel, i) => {
      const app = basePlugin(channel, undefined, i + 2);
      const appTransport = appModel.transport(chatOf);
      return { ...app, renderer, transport: trace ? trace.wrapTransport(appTransport) : appTransport, ...(app.budgetKeys ? { budgetKeys: app.budgetKeys.bind(app) } : {}) };
    }),
  ];
  const pool = apps > 1 ? appPool(members, { chatOf }) : undefined;
  // Each run's app index: where the pool put its card (naive: its chat's first app by rank).
  const appOfRun: number[] = runs.map(() => 0);
  if (pool) tracker.placeOnApps(apps);
  const transportOf = (target: unknown) => (pool ? members[pool.apps.indexOf(pool.rank(target)[0]!)]!.transport : transport);
  let cards: ProgressCards | undefined;
  const naive: NaiveCard[] = [];
  if (design !== 'naive') {
    // The p-throttle design replaces the BudgetStore seam through a parent container (the `store` option would also make cards durable).
    const parent = createContainer();
    if (design === 'p-throttle') parent.register(TOKENS.BudgetStore, { useValue: new PThrottleBudgetStore() });
    else if (trace && !time.store) parent.register(TOKENS.BudgetStore, { useValue: trace.wrapStore(new InMemoryBudgetStore()) });
    cards = createProgressCards({
      channels: [pool ?? members[0]!],
      logger: silentLogger,
      env: {},
      parent,
      ...(time.store && design === 'progresscard' ? { store: time.store } : {}),
    });
  }

  const loopDelay = time.virtual ? undefined : monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  const lateBy = (ns: number) => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);
  loopDelay?.enable();
  const t0 = Date.now();
  let scriptsEnded = 0;
  const cpu0 = process.cpuUsage();
  for (const [index, run] of runs.entries()) {
    const chatId = chatIdOf(channel, run.chat);
    const target = { receiveId: chatId, chatId, channel: chatId, conversationId: chatId, run: index };
    const options = channel === 'teams-personal' ? { requester: { id: `29:bench${index}` } } : streamed ? { replyTo: { messageId: `${1_800_000_000 + index}.000100` }, requester: { id: `U${index}` } } : undefined;
    setTimeout(() => {
      const card = cards ? cards.open(base.id, target, options) : new NaiveCard(renderer, transportOf(target), target);
      if (card instanceof NaiveCard) naive.push(card);
      if (pool) {
        appOfRun[index] = pool.apps.findIndex((app) => app.id === (card instanceof NaiveCard ? pool.rank(target)[0]!.id : card.channelId));
        tracker.placeRun(index, appOfRun[index]!);
      }
      let step = 0;
      if (run.events.length === 0) scriptsEnded++;
      const next = () => {
        const scripted = run.events[step++]!;
        tracker.pushed(index, scripted.event, Date.now());
        trace?.pushed(index, scripted.event, Date.now());
        card.push(scripted.event);
        if (step < run.events.length) setTimeout(next, run.events[step]!.offsetMs - scripted.offsetMs);
        else scriptsEnded++;
      };
      setTimeout(next, run.events[0]?.offsetMs ?? 0);
    }, run.startMs);
  }

  // Four times a second: does a card wait for a budget slot (naive: for anything), how many cards
  // are dirty, how many updates were accepted. A quarter second counts as "while a card waits" when
  // a card waited at both its ends: seen only at its end, the wait may have begun a millisecond
  // before (on the traces, where every ticking card is marked at the same tick, two thirds of the
  // waiting samples were such starts of a burst, with the quarter second before it idle).
  const sampleMs = 250;
  let busySamples = 0;
  let waitedBefore = false;
  const noCalls = (): Record<GateRoute, number> => ({ send: 0, update: 0, start: 0, append: 0, stop: 0 });
  const busyCalls = noCalls();
  let changeSamples = 0;
  let changeBefore = false;
  const changeCalls = noCalls();
  const dirtySamples: number[] = [];
  let seen = 0;
  const routes: readonly GateRoute[] = ['send', 'update', 'start', 'append', 'stop'];
  // The routes the app-wide rate applies to (Slack: chat.update, or appendStream when streamed; the others: the busier of send and update).
  const budgeted = model.gate.budgetedRoutes ?? ['send', 'update'];
  const busiest = (calls: Record<GateRoute, number>) => Math.max(...budgeted.map((route) => calls[route]));
  const sampler = setInterval(() => {
    const accepted = noCalls();
    for (; seen < calls.length; seen++) if (calls[seen]!.code === undefined) accepted[calls[seen]!.route]++;
    const diagnostics = cards?.diagnostics();
    const dirty = diagnostics ? diagnostics.pendingCards : naive.filter((card) => card.waiting).length;
    const waiting = diagnostics ? diagnostics.channelsAtBudget > 0 : dirty > 0;
    if (waiting && waitedBefore) {
      busySamples++;
      for (const route of routes) busyCalls[route] += accepted[route];
    }
    if (waiting) dirtySamples.push(dirty);
    waitedBefore = waiting;
    const changeWaits = tracker.cardsWithUnshownChange > 0;
    if (changeWaits && changeBefore) {
      changeSamples++;
      for (const route of routes) changeCalls[route] += accepted[route];
    }
    changeBefore = changeWaits;
  }, sampleMs);

  // Done when every final showed, or every run ended and the design has nothing left to try.
  const done = () =>
    tracker.openRuns === 0 ||
    (scriptsEnded === runs.length && (cards ? cards.diagnostics().openCards === 0 : naive.length === runs.length && naive.every((card) => card.finished)));
  if (time.virtual) await time.virtual.run(done, t0 + time.limitMs, time.realImmediate);
  else {
    const deadline = t0 + time.limitMs;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(sampler);
  loopDelay?.disable();
  const finalsMissing = tracker.openRuns;
  tracker.close();
  const durationMs = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (cards) {
    // Stop what is left (only when a limit cut the point short) without waiting for it.
    void cards.shutdown().catch(() => undefined);
  }

  const rejections: Record<string, number> = {};
  for (const call of calls) if (call.code) rejections[call.code] = (rejections[call.code] ?? 0) + 1;
  const pct = (values: readonly number[]): Percentiles => ({ p50: percentile(values, 50), p99: percentile(values, 99) });
  // Several apps: their rates add up (the bound assumes cards spread evenly; `busiestAppShare` says how evenly they did).
  const rate = model.gate.appRate * apps;
  // The p99 change competes with about this many cards, of its chat at most the chat's runs.
  const boundOf = (dirtyCards: number, perSecond = rate) => {
    const chatBoundMs = model.gate.chatRate === undefined ? 0 : (Math.min(dirtyCards, runsPerChat(channel)) / model.gate.chatRate) * 1000;
    return Math.max(PER_CARD_INTERVAL_MS[channel], (dirtyCards / perSecond) * 1000, chatBoundMs);
  };
  const boundMs = givenBound?.boundMs ?? boundOf(tracker.unshownAtEvents.length > 0 ? percentile(tracker.unshownAtEvents, 99) : 0);
  const productBoundMs = givenBound?.productBoundMs ?? boundOf(dirtySamples.length > 0 ? percentile(dirtySamples, 99) : 0);
  // Several apps: the cards a change competes with are its own app's (cards stay on their chat's app), at one app's rate.
  const appBoundMs = apps > 1 ? (givenBound?.appBoundMs ?? boundOf(percentile(tracker.unshownOnAppAtEvents, 99), model.gate.appRate)) : undefined;
  const staleness = { tool: pct(tracker.tool), toolOnShownCard: pct(tracker.toolOnShownCard), firstCard: pct(tracker.firstCard), answer: pct(tracker.answer) };
  return {
    design,
    channel,
    workload,
    n: runs.length,
    seed,
    apps,
    ...(pool ? { busiestAppShare: busiestShare(appOfRun, apps) } : {}),
    calls: calls.length,
    rejections,
    staleness,
    boundMs,
    productBoundMs,
    ratioToBound: { tool: staleness.tool.p99 / boundMs, firstCard: staleness.firstCard.p99 / boundMs },
    ratioToProductBound: { tool: staleness.tool.p99 / productBoundMs, firstCard: staleness.firstCard.p99 / productBoundMs },
    ...(appBoundMs === undefined ? {} : { appBoundMs, ratioToAppBound: { tool: staleness.tool.p99 / appBoundMs, firstCard: staleness.firstCard.p99 / appBoundMs } }),
    budgetUsedWhileWaiting: changeSamples > 0 ? busiest(changeCalls) / ((changeSamples * sampleMs * rate) / 1000) : Number.NaN,
    budgetUsedAtBudget: busySamples > 0 ? busiest(busyCalls) / ((busySamples * sampleMs * rate) / 1000) : Number.NaN,
    final: pct(tracker.final),
    ...(model.gate.sendWindows ? { floors: floorsOf(runs, model.gate.sendWindows, appOfRun) } : {}),
    finalsBeforeFirstCard: { count: tracker.finalBeforeFirstCard.length, p99: percentile(tracker.finalBeforeFirstCard, 99) },
    finalsMissing,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    durationMs,
    ...(loopDelay
      ? {
          // The histogram holds each 20 ms timer's whole interval: the delay is what exceeds the 20 ms.
          eventLoopDelayMs: { p50: lateBy(loopDelay.percentile(50)), p99: lateBy(loopDelay.percentile(99)), max: lateBy(loopDelay.max) },
          loadAverage: loadavg()[0]!,
          transport: time.emulator ? ('http' as const) : ('model' as const),
        }
      : {}),
  };
}

/** The first-card and final p99 floors of `runs` (see floors.ts), run i on app `appOfRun[i]`. */
function floorsOf(runs: readonly RunScript[], windows: readonly { limit: number; intervalMs: number }[], appOfRun: readonly number[]): { firstCardMs: number; finalMs: number } {
  const starts = new Map<number, number[]>();
  const ends = new Map<number, number[]>();
  for (const [index, run] of runs.entries()) {
    const app = appOfRun[index]!;
    const first = run.events[0]?.offsetMs ?? 0;
    const last = run.events.at(-1)?.offsetMs ?? 0;
    if (!starts.has(app)) {
      starts.set(app, []);
      ends.set(app, []);
    }
    starts.get(app)!.push(run.startMs + first);
    ends.get(app)!.push(run.startMs + last);
  }
  return { firstCardMs: p99FloorMs([...starts.values()], windows), finalMs: p99FloorMs([...ends.values()], windows) };
}

/** The busiest app's runs over the mean per app, as the pool placed the runs' cards (`appOfRun[i]`: run i's app). */
function busiestShare(appOfRun: readonly number[], apps: number): number {
  const perApp = Array.from({ length: apps }, () => 0);
  for (const app of appOfRun) perApp[app]!++;
  return Math.max(...perApp) / (appOfRun.length / apps);
}
