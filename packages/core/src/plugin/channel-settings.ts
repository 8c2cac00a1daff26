import { checkTimerMs, MAX_TIMER_MS } from '../shared/timer-duration.js';
import { VERBOSITY_PROFILES } from '../card/view.js';
import { showValue } from '../shared/show-value.js';
import type { Logger } from '../shared/logger.js';
import type { ChannelSettings, ChannelPlugin } from './contract.js';
import { streamPacingProblem } from './stream-contract.js';

/** `feishu` → `FEISHU_CARD_TOOL_TICK_MS`; dashes become underscores. */
export function tickEnvName(channelId: string): string {
  return `${channelId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CARD_TOOL_TICK_MS`;
}

/**
 * A channel's effective settings: the plugin's defaults, then its config overrides, then the env
 * variable `<CHANNEL>_CARD_TOOL_TICK_MS` for the tick. A tick that is not a positive integer (from
 * config or env) falls back to the value below it with one warning naming the source and value.
 *
 * @throws Error naming the channel, field and value when `perCardIntervalMs` or `debounceMs` is not
 *   an integer from 0 to 2 147 483 647 ms (setTimeout's limit, about 24.8 days), `callTimeoutMs` (when set) not one from 1 to that limit, `budget` is not a non-empty list of positive-integer windows, or
 *   `verbosity` is not a profile (or `{ direct?, group? }` of profiles); also when the channel streams
 *   natively and `perCardIntervalMs` leaves no call after a stream's start before its roll-over margin
 *   (`streamLifetimeProblem`).
 */
export function resolveChannelSettings(
  plugin: ChannelPlugin,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): ChannelSettings {
  const merged: ChannelSettings = { ...plugin.defaults, ...definedOnly(plugin.overrides ?? {}) };
  checkTiming(plugin.id, merged);
  const pacing = plugin.streaming && streamPacingProblem(plugin.streaming.lifetime, merged.perCardIntervalMs);
  if (pacing) throw new Error(`${plugin.id} ${pacing.field} = ${showValue(pacing.value)}: ${pacing.reason}`);
  let tickMs = plugin.defaults.tickMs;
  if (merged.tickMs !== tickMs) {
    if (isTickMs(merged.tickMs)) tickMs = merged.tickMs;
    else logger.warn(`ignoring ${plugin.id} config tickMs=${String(merged.tickMs)}: not an integer from 1 to ${MAX_TIMER_MS}; using ${tickMs} ms`);
  }
  const name = tickEnvName(plugin.id);
  const raw = env[name];
  if (raw !== undefined && raw !== '') {
    const value = Number(raw.trim());
    if (/^\d+$/.test(raw.trim()) && isTickMs(value)) tickMs = value;
    else logger.warn(`ignoring ${name}=${JSON.stringify(raw)}: not an integer from 1 to ${MAX_TIMER_MS}; using ${tickMs} ms`);
  }
  return { ...merged, tickMs };
}

function checkTiming(channelId: string, settings: ChannelSettings): void {
  const fail = (field: string, value: unknown, rule: string) => {
    throw new Error(`${channelId} ${field} = ${showValue(value)}: ${rule}`);
  };
  for (const field of ['perCardIntervalMs', 'debounceMs'] as const) {
    checkTimerMs(`${channelId} ${field}`, settings[field], 0);
  }
  if (settings.callTimeoutMs !== undefined) checkTimerMs(`${channelId} callTimeoutMs`, settings.callTimeoutMs, 1);
  const verbosity: unknown = settings.verbosity;
  const isProfile = (value: unknown) => value === undefined || (VERBOSITY_PROFILES as readonly unknown[]).includes(value);
  if (verbosity !== undefined && !(typeof verbosity === 'string' ? isProfile(verbosity)
    : typeof verbosity === 'object' && verbosity !== null && Object.entries(verbosity).every(([key, value]) => (key === 'direct' || key === 'group') && isProfile(value)))) {
    fail('verbosity', verbosity, 'must be "quiet", "compact" or "detailed", or { direct?, group? } of those');
  }
  const budget: unknown = settings.budget;
  if (!Array.isArray(budget) || budget.length === 0) fail('budget', budget, 'must list at least one { limit, intervalMs } window');
  for (const [i, window] of (budget as unknown[]).entries()) {
    for (const key of ['limit', 'intervalMs'] as const) {
      const value = (window as Record<string, unknown> | null)?.[key];
      if (key === 'intervalMs') checkTimerMs(`${channelId} budget[${i}].intervalMs`, value, 1);
      else if (!isPositiveInteger(value)) fail(`budget[${i}].${key}`, value, 'must be a positive integer');
    }
  }
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isTickMs(value: unknown): value is number {
  return isPositiveInteger(value) && value <= MAX_TIMER_MS;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
