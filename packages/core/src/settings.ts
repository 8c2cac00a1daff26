import type { Logger } from './logger.js';
import type { ChannelDefaults, ChannelPlugin } from './plugin.js';

/** `feishu` → `FEISHU_CARD_TOOL_TICK_MS`; dashes become underscores. */
export function tickEnvName(channelId: string): string {
  return `${channelId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CARD_TOOL_TICK_MS`;
}

/**
 * A channel's effective settings: the plugin's defaults, then its config overrides, then the env
 * variable `<CHANNEL>_CARD_TOOL_TICK_MS` for the tick. A tick that is not a positive integer (from
 * config or env) falls back to the value below it with one warning naming the source and value.
 */
export function resolveChannelSettings(
  plugin: ChannelPlugin,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): ChannelDefaults {
  const merged: ChannelDefaults = { ...plugin.defaults, ...definedOnly(plugin.overrides ?? {}) };
  let tickMs = plugin.defaults.tickMs;
  if (merged.tickMs !== tickMs) {
    if (isPositiveInteger(merged.tickMs)) tickMs = merged.tickMs;
    else logger.warn(`ignoring ${plugin.id} config tickMs=${String(merged.tickMs)}: not a positive integer; using ${tickMs} ms`);
  }
  const name = tickEnvName(plugin.id);
  const raw = env[name];
  if (raw !== undefined && raw !== '') {
    const value = Number(raw.trim());
    if (/^\d+$/.test(raw.trim()) && isPositiveInteger(value)) tickMs = value;
    else logger.warn(`ignoring ${name}=${JSON.stringify(raw)}: not a positive integer; using ${tickMs} ms`);
  }
  return { ...merged, tickMs };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
