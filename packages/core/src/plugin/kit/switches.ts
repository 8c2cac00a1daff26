import { z } from 'zod';
import { FOOTER_FIELDS } from '../../card/format/footer.js';
import type { Locale } from '../../card/view.js';
import { ChannelConfigError, parseChannelConfig } from './config.js';
import type { EnvSource } from './env.js';
import type { CompletionPingSwitch, FeatureSwitches } from '../contract.js';

/**
 * Feature switches: what an operator turns on or off per channel without touching code, in the
 * channel's config and, winning over it, in the environment (so a restart with one variable set
 * rolls a behaviour back). Every plugin reads them the same way through {@link resolveFeatureSwitches}.
 */

/**
 * The completion ping's default: a card that at least 3 later messages pushed up gets a reply when
 * its final lands (about what leaves a card's header off a chat window); no ping by run time alone.
 */
export const DEFAULT_COMPLETION_PING: CompletionPingSwitch = { afterMs: Number.POSITIVE_INFINITY, onCancelled: false, pushedUpBy: 3 };

/** Defaults of {@link FeatureSwitches}: everything as before the switches existed, and the completion ping for a pushed-up card. */
export const DEFAULT_FEATURE_SWITCHES: FeatureSwitches = { progressive: true, footerStyle: 'compact', cardPer: 'run', completionPing: DEFAULT_COMPLETION_PING };

const positiveInteger = z.number().int().positive();

/**
 * The switch fields every channel's config takes (all optional), as zod 4 fields to spread into a
 * plugin's config schema next to `TIMING_OVERRIDES_SHAPE`.
 */
export const FEATURE_SWITCHES_SHAPE = {
  progressive: z.boolean().optional(),
  footerStyle: z.enum(['compact', 'debug']).optional(),
  footerFields: z.array(z.enum(FOOTER_FIELDS)).min(1).optional(),
  toolFoldAfter: z.number().int().min(1).max(100).optional(),
  cardPer: z.enum(['run', 'turn']).optional(),
  locale: z.enum(['zh-CN', 'en']).optional(),
  completionPing: z
    .union([
      z.literal(false),
      z
        .object({
          afterMs: z.number().int().nonnegative().default(60_000),
          onCancelled: z.boolean().default(false),
          pushedUpBy: z.number().int().min(1).max(100).default(3),
        })
        .strict(),
    ])
    .optional(),
  runCallCap: positiveInteger.min(2).optional(),
  monthlyQuota: positiveInteger.optional(),
} as const;

const SwitchesSchema = z.object(FEATURE_SWITCHES_SHAPE);

/** A switch's environment variable: `<CHANNEL>_CARD_<SUFFIX>`, what it takes and the field it sets. */
export interface SwitchEnvVariable {
  readonly suffix: string;
  readonly field: keyof FeatureSwitches;
  /** For help texts and the README. */
  readonly hint: string;
  /** Text → the config value (before validation); throws an Error whose message says what is expected. */
  readonly parse: (text: string) => unknown;
}

function onOff(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new Error('expected on or off');
}

function wholeNumber(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error('expected a whole number');
  return Number(text.trim());
}

function language(text: string): Locale {
  const value = text.trim().toLowerCase();
  if (value === 'zh' || value === 'zh-cn') return 'zh-CN';
  if (value === 'en') return 'en';
  throw new Error('expected zh or en');
}

/** The switch variables, in README order. `FEISHU_CARD_PROGRESSIVE=off` sends one card at the final only. */
export const SWITCH_ENV_VARIABLES: readonly SwitchEnvVariable[] = [
  { suffix: 'PROGRESSIVE', field: 'progressive', hint: 'on (default) | off: one card at the final only', parse: onOff },
  { suffix: 'FOOTER_STYLE', field: 'footerStyle', hint: 'compact (default) | debug', parse: (t) => t.trim().toLowerCase() },
  {
    suffix: 'FOOTER_FIELDS',
    field: 'footerFields',
    hint: `comma list of ${FOOTER_FIELDS.join(', ')}`,
    parse: (t) => t.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean),
  },
  { suffix: 'TOOL_FOLD_AFTER', field: 'toolFoldAfter', hint: 'tool calls shown before older ones fold', parse: wholeNumber },
  { suffix: 'PER', field: 'cardPer', hint: 'run (default) | turn: a new card per round', parse: (t) => t.trim().toLowerCase() },
  { suffix: 'LANG', field: 'locale', hint: 'zh | en: every card (default: the run\'s, else the channel\'s)', parse: language },
  {
    suffix: 'COMPLETION_PING_MS',
    field: 'completionPing',
    hint: 'off | ms: ping after runs at least this long',
    parse: (t) => (t.trim().toLowerCase() === 'off' ? false : { afterMs: wholeNumber(t) }),
  },
  { suffix: 'RUN_CALL_CAP', field: 'runCallCap', hint: 'most calls per card message (stretches the tick)', parse: wholeNumber },
  { suffix: 'MONTHLY_QUOTA', field: 'monthlyQuota', hint: 'platform calls per month (for plan/doctor)', parse: wholeNumber },
];

/** `feishu`, `PROGRESSIVE` → `FEISHU_CARD_PROGRESSIVE`; dashes become underscores. */
export function switchEnvName(channelId: string, suffix: string): string {
  return `${channelId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CARD_${suffix}`;
}

/** Options of {@link resolveFeatureSwitches}. */
export interface ResolveSwitchesOptions {
  /** Read for `<CHANNEL>_CARD_*` (default `process.env`). */
  readonly env?: EnvSource;
  /** Builds the error thrown (default a {@link ChannelConfigError}); plugins pass their subclass. */
  readonly error?: (channelId: string, field: string, shown: string, reason: string) => ChannelConfigError;
}

/**
 * A channel's feature switches: the defaults, then the switch fields of `config` (other keys are
 * ignored), then the environment ({@link SWITCH_ENV_VARIABLES}, e.g. `FEISHU_CARD_PROGRESSIVE=off`),
 * which wins so that an operator can roll a behaviour back with one variable and a restart.
 * `completionPing: false` (or `…_COMPLETION_PING_MS=off`) turns the ping off.
 * @throws ChannelConfigError naming the channel, the field (with the variable when it came from the
 *   environment) and the value, e.g. `feishu progressive (FEISHU_CARD_PROGRESSIVE) = "maybe" (expected on or off)`.
 */
export function resolveFeatureSwitches(channelId: string, config: unknown, options: ResolveSwitchesOptions = {}): FeatureSwitches {
  const env = options.env ?? process.env;
  const makeError = options.error ?? ((...args) => new ChannelConfigError(...args));
  const fromConfig = parseChannelConfig(channelId, SwitchesSchema, pickSwitchFields(config), { error: makeError });
  const fromEnv: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  for (const variable of SWITCH_ENV_VARIABLES) {
    const name = switchEnvName(channelId, variable.suffix);
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    try {
      fromEnv[variable.field] = variable.parse(raw);
    } catch (error) {
      throw makeError(channelId, `${variable.field} (${name})`, JSON.stringify(raw), (error as Error).message);
    }
    sources.set(variable.field, name);
  }
  let envParsed: z.output<typeof SwitchesSchema>;
  try {
    envParsed = parseChannelConfig(channelId, SwitchesSchema, fromEnv, { error: makeError });
  } catch (error) {
    if (!(error instanceof ChannelConfigError)) throw error;
    const top = error.field.split('.')[0]!;
    throw makeError(channelId, `${error.field} (${sources.get(top) ?? '?'})`, error.shown, error.reason);
  }
  const merged = { ...DEFAULT_FEATURE_SWITCHES, ...definedOnly(fromConfig), ...definedOnly(envParsed) };
  const { completionPing, ...rest } = merged;
  return completionPing ? { ...rest, completionPing } : rest;
}

function pickSwitchFields(config: unknown): Record<string, unknown> {
  if (config === null || typeof config !== 'object') return {};
  const source = config as Record<string, unknown>;
  return Object.fromEntries(Object.keys(FEATURE_SWITCHES_SHAPE).filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
