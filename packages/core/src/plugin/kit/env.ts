import { ChannelConfigError } from './config.js';

/** Environment variables as a plugin's `fromEnv` reads them (default `process.env`). */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * One environment variable a plugin's `fromEnv` reads, as data: its name, the config field it
 * fills, and whether it must be set.
 * @typeParam Config - the plugin's config input type.
 */
export interface EnvVariable<Config> {
  /** E.g. `FEISHU_APP_ID`. */
  readonly name: string;
  /** The config field it fills, e.g. `appId`. */
  readonly field: keyof Config & string;
  /** Must be set and non-empty unless the field is given in the overrides. */
  readonly required: boolean;
  /** What it takes, for help texts, e.g. `feishu (default), lark or a base URL`. */
  readonly hint: string;
  /** A secret: its value is never trimmed or shown. Other values are trimmed. */
  readonly secret?: boolean;
  /** Turns the text into the field's value (default: the text itself). */
  readonly toValue?: (text: string) => unknown;
  /**
   * Fills this key of the field's object instead of the field, e.g. `verificationToken` of
   * `callbacks`; an earlier variable must have made the field an object (set without it, the
   * variable is refused with a {@link ChannelConfigError} naming both).
   */
  readonly into?: string;
}

/**
 * Required environment variables are unset or empty. Names every one of them at once, and the
 * channel, e.g. `feishu needs the environment variables FEISHU_APP_SECRET, FEISHU_CHAT_ID (unset or empty)`.
 */
export class MissingEnvError extends Error {
  override readonly name = 'MissingEnvError';
  constructor(
    /** The channel id, e.g. `feishu`. */
    readonly channelId: string,
    /** The variables that are unset or empty, in the plugin's order. */
    readonly missing: readonly string[],
  ) {
    super(`${channelId} needs the environment variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (unset or empty)`);
  }
}

/** The required variables of `variables` that are unset or blank in `env`, skipping fields given in `overrides`. */
function missingEnv<Config>(variables: readonly EnvVariable<Config>[], env: EnvSource, overrides: Partial<Config> = {}): string[] {
  return variables.filter((v) => v.required && overrides[v.field] === undefined && !env[v.name]?.trim()).map((v) => v.name);
}

/**
 * A plugin config read from the environment: every variable of `variables` that is set fills its
 * field; `overrides` win over the environment (and make a required variable optional).
 * @throws MissingEnvError naming every required variable that is unset or empty.
 */
export function configFromEnv<Config>(channelId: string, variables: readonly EnvVariable<Config>[], env: EnvSource, overrides: Partial<Config> = {}): Partial<Config> {
  const missing = missingEnv(variables, env, overrides);
  if (missing.length > 0) throw new MissingEnvError(channelId, missing);
  const config: Record<string, unknown> = {};
  for (const variable of variables) {
    const raw = env[variable.name];
    if (raw === undefined || raw.trim() === '') continue;
    const text = variable.secret ? raw : raw.trim();
    const value = variable.toValue ? variable.toValue(text) : text;
    if (variable.into === undefined) {
      config[variable.field] = value;
      continue;
    }
    const holder = config[variable.field];
    if (typeof holder !== 'object' || holder === null) {
      const shown = variable.secret ? '<hidden>' : JSON.stringify(text);
      const needs = variables.find((v) => v.field === variable.field && v.into === undefined);
      throw new ChannelConfigError(channelId, `${variable.field}.${variable.into} (${variable.name})`, shown, `needs ${needs?.name ?? variable.field} set as well`);
    }
    config[variable.field] = { ...holder, [variable.into]: value };
  }
  return { ...(config as Partial<Config>), ...withoutUndefined(overrides) };
}

function withoutUndefined<T>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Builds a plugin from `config`, saying which environment variable a bad field came from: a
 * {@link ChannelConfigError} about a field read from the environment is thrown again (same class)
 * with the variable in the field, e.g. `feishu domain (FEISHU_DOMAIN) = "ftp://x" (…)`.
 */
export function withEnvNames<Config, Plugin>(variables: readonly EnvVariable<Config>[], overrides: Partial<Config>, build: () => Plugin): Plugin {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ChannelConfigError)) throw error;
    const top = error.field.split('.')[0];
    const variable = variables.find((v) => v.field === top && overrides[v.field] === undefined);
    if (!variable) throw error;
    const Kind = error.constructor as new (channelId: string, field: string, shown: string, reason: string) => ChannelConfigError;
    throw new Kind(error.channelId, `${error.field} (${variable.name})`, error.shown, error.reason);
  }
}
