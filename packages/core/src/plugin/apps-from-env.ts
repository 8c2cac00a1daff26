import type { ChannelPlugin } from './contract.js';
import { configFromEnv, withEnvNames, type EnvSource, type EnvVariable } from './kit/env.js';

/** What {@link appsFromEnv} needs of a channel factory (every `defineChannel` factory is one). */
export interface AppsFromEnvFactory<Plugin extends ChannelPlugin> {
  readonly id: string;
  /** The variables the factory's `fromEnv` reads. */
  // biome-ignore lint/suspicious/noExplicitAny: each factory has its own config type; only the variables' names and fields are read here.
  readonly env: readonly EnvVariable<any>[];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  (config: any, options?: { readonly env?: EnvSource }): Plugin;
}

/**
 * The apps of one channel configured in the environment, for `appPool`: app 1 from the channel's
 * usual variables (`FEISHU_APP_ID`, `FEISHU_APP_SECRET`…), app n (n = 2, 3…) from the same
 * variables with the suffix `_<n>` (`FEISHU_APP_ID_2`, `FEISHU_APP_SECRET_2`). App n exists when any
 * variable with its suffix is set; the first n with none ends the list. An optional variable app n
 * leaves unset is app 1's (`FEISHU_DOMAIN`, `FEISHU_CARD_MODE`), except secrets and callback
 * settings (each app has its own endpoint); required ones (the app's identity, its default chat)
 * are read with the suffix only. The feature switches (`<ID>_CARD_*`) are the channel's, shared.
 *
 * @throws MissingEnvError naming every required variable of an app that is unset (`FEISHU_APP_SECRET_2`).
 * @throws ChannelConfigError naming the bad field and the variable it came from (with its suffix).
 */
export function appsFromEnv<Plugin extends ChannelPlugin>(factory: AppsFromEnvFactory<Plugin>, env: EnvSource = process.env): Plugin[] {
  const apps: Plugin[] = [];
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `_${n}`;
    const variables: EnvVariable<Record<string, unknown>>[] = factory.env.map((variable) => ({ ...variable, name: `${variable.name}${suffix}` }));
    if (n > 1 && !variables.some((variable) => env[variable.name]?.trim())) return apps;
    const given: Record<string, string | undefined> = { ...env };
    if (n > 1) {
      for (const [index, variable] of factory.env.entries()) if (fallsBack(variable, factory.env)) given[variables[index]!.name] ??= env[variable.name];
    }
    const config = configFromEnv(factory.id, variables, given, {});
    apps.push(withEnvNames(variables, {}, () => factory(config, { env })));
  }
}

/**
 * The environment as app `n` of a channel sees it under the channel's usual names (see
 * {@link appsFromEnv} for the convention): for n = 1 `env` itself; for n ≥ 2 a copy in which each
 * variable `V` holds `V_<n>` (or app 1's `V` where an optional setting falls back), or undefined
 * when no variable with the suffix is set (there is no app n). For tools that check each app with
 * code written for one (`progresscard doctor`).
 */
// biome-ignore lint/suspicious/noExplicitAny: only the variables' names, flags and fields are read.
export function appEnv(variables: readonly EnvVariable<any>[], env: EnvSource, n: number): EnvSource | undefined {
  if (n === 1) return env;
  if (!variables.some((variable) => env[`${variable.name}_${n}`]?.trim())) return undefined;
  const seen: Record<string, string | undefined> = { ...env };
  for (const variable of variables) {
    const own = env[`${variable.name}_${n}`];
    seen[variable.name] = own ?? (fallsBack(variable, variables) ? env[variable.name] : undefined);
  }
  return seen;
}

/** Whether app n ≥ 2 takes app 1's value of `variable` when it sets none: optional settings, not secrets or callback settings. */
function fallsBack(variable: EnvVariable<Record<string, unknown>>, variables: readonly EnvVariable<Record<string, unknown>>[]): boolean {
  return !variable.required && !variable.secret && variable.into === undefined && !hasParts(variables, variable.field);
}

/** True when `field` is an object some variables fill key by key (`callbacks`): app-specific. */
function hasParts(variables: readonly EnvVariable<Record<string, unknown>>[], field: string): boolean {
  return variables.some((variable) => variable.field === field && variable.into !== undefined);
}
