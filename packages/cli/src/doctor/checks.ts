import { createProgressCards, resolveChannelSettings, silentLogger, type CardView, type ClickReply, type Logger } from '@progresscard/core';
import type { AnyChannelDescriptor, AnyChannelPlugin, Env } from '../channels/descriptor.js';
import { configProblems } from './config-problems.js';
import { unknownVariables } from './unknown-variables.js';
import { budgetPlan, formatPlan, type PlanResult } from '../plan/budget-plan.js';
import { SMOKE_SCENARIOS } from '../smoke/scenarios.js';
import { finalView, runningView } from '../smoke/views.js';
import type { DoctorCheck, DoctorLayer, DoctorStatus } from './report.js';

/**
 * The checks of one channel, layer by layer. A layer that cannot run because an earlier one failed
 * is `skip`. Nothing here throws: every failure becomes a check naming its layer.
 */

/** What one channel's checks need. */
export interface ChannelCheckInput {
  readonly descriptor: AnyChannelDescriptor;
  /** Where the config and switch variables come from (the emulator's with `--emulator`). */
  readonly env: Env;
  /** Send → update → final on the target chat (default true). */
  readonly send: boolean;
  /** How long the round trip may take (ms). */
  readonly deliveryTimeoutMs: number;
  /** Test seam: change the plugin before it is checked (e.g. break its renderer). */
  readonly plugin?: (plugin: AnyChannelPlugin) => AnyChannelPlugin;
  /**
   * The name the user set a channel variable under, for the lines that name variables: app n ≥ 2 of
   * a pool reads `FEISHU_APP_ID_2` although `env` holds it as `FEISHU_APP_ID` (default: the name itself).
   */
  readonly variableName?: (name: string) => string;
}

const check = (layer: DoctorLayer, status: DoctorStatus, summary: string, details: readonly string[] = []): DoctorCheck => ({ layer, status, summary, details });

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Views the renderer must turn into valid payloads: running with tools, completed, failed. */
function sampleViews(): Array<{ name: string; view: CardView }> {
  const tools = SMOKE_SCENARIOS.find((s) => s.id === 'tool-calls')!;
  const structured = SMOKE_SCENARIOS.find((s) => s.id === 'structured-reply')!;
  const failed = { ...structured, end: { type: 'run.failed', error: 'model overloaded', at: 2500 } };
  return [
    { name: 'running with tools', view: runningView(tools)! },
    { name: 'completed', view: finalView(structured) },
    { name: 'failed', view: finalView(failed) },
  ];
}

/** Views that push the guards: a 20-row table, many tables, a long analysis. */
function stressViews(): Array<{ name: string; view: CardView }> {
  const byId = (id: string) => SMOKE_SCENARIOS.find((s) => s.id === id)!;
  const table = byId('table-3x5');
  const manyTables = { ...table, events: [table.events[0]!, ...Array.from({ length: 8 }, (_, i) => ({ ...table.events[1]!, at: 1000 + i }))] };
  return [
    { name: '20-row table', view: finalView(byId('table-20-rows')) },
    { name: '8 tables', view: finalView(manyTables) },
    { name: 'long analysis', view: finalView(byId('long-analysis')) },
  ];
}

/**
 * Whether the app holds the scopes the plugin's mode uses beyond sending cards. A missing one is a
 * warning (the channel falls back and cards still go out); so is a platform that could not be asked.
 */
async function scopesCheck(descriptor: AnyChannelDescriptor, plugin: AnyChannelPlugin, env: Env): Promise<DoctorCheck> {
  if (!descriptor.doctor.checkScopes) return check('scopes', 'pass', 'the plugin brings no scope check (checkScopes); a refused scope shows in the delivery check');
  try {
    const result = await descriptor.doctor.checkScopes(env, plugin);
    return check('scopes', result.status, result.summary, result.details);
  } catch (error) {
    return check('scopes', 'warn', `the permission scopes could not be checked: ${message(error)}`);
  }
}

function rendererCheck(descriptor: AnyChannelDescriptor, plugin: AnyChannelPlugin): DoctorCheck {
  const problems: string[] = [];
  for (const { name, view } of sampleViews()) {
    for (const [kind, render] of [['card', () => plugin.renderer.render(view)], ['fallback', () => plugin.renderer.renderFallback(view)]] as const) {
      try {
        for (const problem of descriptor.doctor.payloadProblems(render(), plugin)) problems.push(`${name} ${kind}: ${problem}`);
      } catch (error) {
        problems.push(`${name} ${kind}: the renderer threw ${message(error)}`);
      }
    }
  }
  return problems.length === 0
    ? check('renderer', 'pass', `renders valid ${descriptor.label} payloads (running, completed, failed, fallback)`)
    : check('renderer', 'fail', `the renderer produced ${problems.length} invalid payload(s)`, problems);
}

function guardsCheck(descriptor: AnyChannelDescriptor, plugin: AnyChannelPlugin): DoctorCheck {
  const problems: string[] = [];
  for (const { name, view } of stressViews()) {
    try {
      const payloads = [plugin.renderer.render(view), ...(plugin.renderer.renderContinuations?.(view) ?? [])];
      payloads.forEach((payload, index) => {
        for (const problem of descriptor.doctor.limitProblems(payload, plugin)) problems.push(`${name}, message ${index + 1}: ${problem}`);
      });
    } catch (error) {
      problems.push(`${name}: the renderer threw ${message(error)}`);
    }
  }
  return problems.length === 0
    ? check('guards', 'pass', 'tables, element counts and sizes stay within the platform limits')
    : check('guards', 'fail', 'a card would be refused by the platform', problems);
}

async function deliveryCheck(input: ChannelCheckInput, plugin: AnyChannelPlugin): Promise<DoctorCheck> {
  if (!input.send) return check('delivery', 'warn', 'round trip not tried (--no-send)');
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
  const cards = createProgressCards({ channels: [plugin], logger, env: input.env });
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), input.deliveryTimeoutMs).unref());
  try {
    const card = cards.open(plugin.id, undefined, { title: 'progresscard doctor', locale: 'en' });
    card.start({ title: 'progresscard doctor: test card', locale: 'en' });
    card.toolStarted('doctor-1', 'shell', { command: 'progresscard doctor' });
    if ((await Promise.race([cards.idle(), timeout])) === 'timeout') return check('delivery', 'fail', 'the first send did not settle in time', warnings);
    card.toolFinished('doctor-1', 'ok');
    card.complete('This card was sent by `progresscard doctor`; it can be deleted.');
    const final = await Promise.race([card.finalDelivery, timeout]);
    if (final === 'timeout') return check('delivery', 'fail', 'the final did not settle in time', warnings);
    const stats = cards.stats(plugin.id);
    const figures = `${JSON.stringify(stats)}`;
    if (!final.ok) return check('delivery', 'fail', `the final was not delivered: ${final.error ?? 'unknown error'}`, [figures, ...warnings]);
    return check('delivery', warnings.length > 0 ? 'warn' : 'pass', `send → update → final delivered (message ${final.message?.id ?? '?'}, left in the chat as a test card)`, [figures, ...warnings]);
  } finally {
    await cards.shutdown('doctor finished');
  }
}

/** What the doctor's listener answers a click that arrives while it checks (nothing is decided). */
const DOCTOR_CLICK_REPLY: ClickReply = { outcome: 'stale', message: 'progresscard doctor is checking the card callbacks; please click again', tone: 'info', repeated: false };

/**
 * Whether card callbacks can reach the app: starts the plugin's listener (a long connection
 * registers with the platform, an HTTP endpoint binds its port) and stops it again. Without
 * callbacks configured, or when the platform refuses them, cards show the reply to type
 * (`/approve 3F2A`) instead of buttons.
 */
async function callbacksCheck(descriptor: AnyChannelDescriptor, plugin: AnyChannelPlugin, timeoutMs: number): Promise<DoctorCheck> {
  const fallback = 'open questions show the reply to type (e.g. `/approve 3F2A`) instead of buttons';
  const interaction = plugin.interaction;
  if (!interaction) return check('callbacks', 'warn', `card callbacks are not configured: ${fallback}`, descriptor.doctor.callbacks.setup);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the listener did not start within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([interaction.start(() => DOCTOR_CLICK_REPLY), timeout]);
  } catch (error) {
    return check('callbacks', 'fail', `card callbacks cannot reach the app: ${message(error)}; ${fallback}`, descriptor.doctor.callbacks.setup);
  } finally {
    clearTimeout(timer);
    await interaction.stop().catch(() => undefined);
  }
  const warnings = interaction.warnings ?? [];
  if (warnings.length > 0) return check('callbacks', 'warn', `${descriptor.doctor.callbacks.listening}; but ${warnings.join('; ')}`, descriptor.doctor.callbacks.caveats);
  return check('callbacks', 'pass', descriptor.doctor.callbacks.listening, descriptor.doctor.callbacks.caveats);
}

function budgetCheck(descriptor: AnyChannelDescriptor, plugin: AnyChannelPlugin, env: Env): { check: DoctorCheck; plan?: PlanResult } {
  try {
    const settings = resolveChannelSettings(plugin, env, silentLogger);
    const switches = plugin.switches;
    const monthlyQuota = switches?.monthlyQuota ?? descriptor.doctor.monthlyQuota;
    const plan = budgetPlan({ budget: settings.budget, tickMs: settings.tickMs, monthlyQuota, runCallCap: switches?.runCallCap, callsPerOperation: plugin.transport.callsPerOperation });
    const details = formatPlan(descriptor.label, plan).split('\n');
    const tight = plan.runsPerMonth !== undefined && plan.runsPerMonth < 100 && plan.capped === undefined;
    const summary = `${plan.freshRuns} runs with running tools stay fully fresh at a ${plan.tickSeconds} s tick${plan.runsPerMonth === undefined ? '' : `; about ${plan.runsPerMonth} runs of ${plan.runMinutes} minutes a month`}`;
    if (tight) details.push(`the monthly quota allows few runs: set ${descriptor.id} runCallCap (or ${descriptor.id.toUpperCase()}_CARD_RUN_CALL_CAP) to stretch the tick`);
    return { check: check('budget', tight ? 'warn' : 'pass', summary, details), plan };
  } catch (error) {
    return { check: check('budget', 'fail', `the budget settings are invalid: ${message(error)}`) };
  }
}

function switchesCheck(plugin: AnyChannelPlugin): DoctorCheck {
  const s = plugin.switches;
  if (!s) return check('switches', 'pass', 'no feature switches (all defaults)');
  const notes: string[] = [];
  if (!s.progressive) notes.push('progressive updates are off: one card is sent at the final only');
  if (s.footerStyle === 'debug') notes.push('the footer is in debug style');
  if (s.cardPer === 'turn') notes.push('a new card per round (cardPer: turn)');
  const info = [
    `progressive ${s.progressive ? 'on' : 'off'}, footer ${s.footerStyle}${s.footerFields ? ` (${s.footerFields.join(', ')})` : ''}, card per ${s.cardPer}`,
    `language ${s.locale ?? "the run's"}, tool folding ${s.toolFoldAfter ?? 'default'}, completion ping ${pingText(s.completionPing)}`,
  ];
  return notes.length > 0 ? check('switches', 'warn', notes.join('; '), info) : check('switches', 'pass', 'defaults for progressive updates, footer and cards', info);
}

/** Every layer's check for one channel, in order, and the budget figures when they could be worked out. */
export async function checkChannel(input: ChannelCheckInput): Promise<{ checks: DoctorCheck[]; plan?: PlanResult }> {
  const { descriptor, env } = input;
  const named = input.variableName ?? ((name: string) => name);
  const missing = descriptor.real.requiredEnv.filter((name) => !env[name]?.trim()).map(named);
  const skipAll = (reason: string) =>
    (['credentials', 'scopes', 'renderer', 'guards', 'delivery', 'callbacks', 'budget', 'switches'] as const).map((layer) => check(layer, 'skip', reason));
  // Every problem of the config in one run: the missing variables and each bad value (see configProblems).
  const built = configProblems(descriptor, env, (variables) => descriptor.real.plugin(variables, { switchEnv: variables }));
  // Misspelt variables are read by nothing: said once, with app 1 (a pool's other apps share the environment).
  const unknown = input.variableName ? [] : unknownVariables(descriptor, env);
  if (missing.length > 0 || built.problems) {
    const failed = configFailure(missing, (built.problems ?? []).map((problem) => renamed(problem, descriptor, named)));
    return { checks: [{ ...failed, details: [...failed.details, ...unknown] }, ...skipAll('config failed')] };
  }
  const plugin = input.plugin ? input.plugin(built.plugin) : built.plugin;
  const present = [...descriptor.real.requiredEnv, ...descriptor.real.optionalEnv.map((v) => v.name).filter((name) => env[name]?.trim())].map(named);
  const valid = `${present.join(', ')} set; config valid`;
  const checks: DoctorCheck[] = [unknown.length > 0 ? check('config', 'warn', `${valid}; ${unknown.join('; ')}`, unknown) : check('config', 'pass', valid)];
  let credentialsOk = true;
  try {
    if (descriptor.doctor.checkCredentials) {
      await descriptor.doctor.checkCredentials(env);
      checks.push(check('credentials', 'pass', 'the platform accepted the credentials'));
    } else {
      checks.push(check('credentials', 'skip', 'the plugin module brings no credentials check (checkCredentials); the delivery check proves them'));
    }
  } catch (error) {
    credentialsOk = false;
    checks.push(check('credentials', 'fail', message(error)));
  }
  checks.push(credentialsOk ? await scopesCheck(descriptor, plugin, env) : check('scopes', 'skip', 'credentials failed'));
  const renderer = rendererCheck(descriptor, plugin);
  checks.push(renderer, guardsCheck(descriptor, plugin));
  const canSend = credentialsOk && renderer.status !== 'fail';
  checks.push(canSend ? await deliveryCheck(input, plugin) : check('delivery', 'skip', credentialsOk ? 'renderer failed' : 'credentials failed'));
  checks.push(credentialsOk ? await callbacksCheck(descriptor, plugin, input.deliveryTimeoutMs) : check('callbacks', 'skip', 'credentials failed'));
  const budget = budgetCheck(descriptor, plugin, env);
  checks.push(budget.check, switchesCheck(plugin));
  return { checks, plan: budget.plan };
}

/**
 * The failed config check: one line when there is one problem (the missing variables, or the bad
 * value), else a count with one detail line per problem.
 */
function configFailure(missing: readonly string[], bad: readonly string[]): DoctorCheck {
  const setMissing = missing.length > 0 ? [`set ${missing.join(', ')} (values are never printed)`] : [];
  if (missing.length > 0 && bad.length === 0) return check('config', 'fail', `missing ${missing.join(', ')}`, setMissing);
  if (missing.length === 0 && bad.length === 1) return check('config', 'fail', bad[0]!);
  const values = `${bad.length} bad value${bad.length === 1 ? '' : 's'}`;
  return check('config', 'fail', missing.length > 0 ? `missing ${missing.join(', ')}; ${values}` : values, [...bad, ...setMissing]);
}

/** `text` with each of the channel's variable names replaced by the name the user set it under. */
function renamed(text: string, descriptor: AnyChannelDescriptor, named: (name: string) => string): string {
  const names = [...descriptor.real.requiredEnv, ...descriptor.real.optionalEnv.map((v) => v.name)];
  // `\b…\b` leaves a longer name alone (`FEISHU_APP_ID` is not found inside `FEISHU_APP_ID_2`).
  return names.length === 0 ? text : text.replace(new RegExp(`\\b(?:${names.join('|')})\\b`, 'g'), named);
}

/** The completion ping switch in words: `when 3 messages pushed the card up, or after 60000 ms`, or `off`. */
function pingText(ping: { readonly afterMs: number; readonly pushedUpBy?: number } | undefined): string {
  if (!ping) return 'off';
  const parts = [
    ...(ping.pushedUpBy !== undefined ? [`when ${ping.pushedUpBy} messages pushed the card up`] : []),
    ...(Number.isFinite(ping.afterMs) ? [`after ${ping.afterMs} ms`] : []),
  ];
  return parts.length > 0 ? parts.join(', or ') : 'off';
}
