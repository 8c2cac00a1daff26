import type { AnyChannelDescriptor, AnyChannelPlugin, Env } from '../channels/descriptor.js';

/**
 * Every bad value of a channel's configuration that `doctor` can find in one run. Building the
 * plugin stops at its first bad value, so after a failed build each set optional variable (with
 * the variables that fill the same config field, such as `FEISHU_CALLBACKS` with its verification
 * token) and each set feature switch variable (`FEISHU_CARD_*`) is tried again on its own, beside
 * the required variables. A bad required variable shows once, however many tries it fails.
 */

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The outcome of {@link configProblems}: the plugin, or every distinct problem found (the build's own first). */
export type ConfigOutcome = { readonly plugin: AnyChannelPlugin; readonly problems?: undefined } | { readonly plugin?: undefined; readonly problems: readonly string[] };

/**
 * Builds the channel's plugin from `env` with `build`; when that throws, also tries each set
 * optional group and switch variable alone (see the file comment) and collects every distinct message.
 */
export function configProblems(descriptor: AnyChannelDescriptor, env: Env, build: (env: Env) => AnyChannelPlugin): ConfigOutcome {
  let first: string;
  try {
    return { plugin: build(env) };
  } catch (error) {
    first = message(error);
  }
  const groups = optionalGroups(descriptor, env);
  const tried = new Set(groups.flat());
  const required = Object.fromEntries(Object.entries(env).filter(([name]) => !tried.has(name)));
  const problems = [first];
  for (const group of groups) {
    try {
      build({ ...required, ...Object.fromEntries(group.map((name) => [name, env[name]])) });
    } catch (error) {
      const text = message(error);
      if (!problems.includes(text)) problems.push(text);
    }
  }
  return { problems };
}

/**
 * The set optional variables of the channel in groups tried together: the plugin's variables that
 * fill one config field (`FEISHU_CALLBACKS` and `FEISHU_CALLBACK_VERIFICATION_TOKEN` fill `callbacks`),
 * the other optional variables and each `<CHANNEL>_CARD_*` switch variable alone.
 */
function optionalGroups(descriptor: AnyChannelDescriptor, env: Env): string[][] {
  const isSet = (name: string) => Boolean(env[name]?.trim());
  const byField = new Map<string, string[]>();
  for (const variable of descriptor.real.variables ?? []) {
    if (variable.required || !isSet(variable.name)) continue;
    byField.set(variable.field, [...(byField.get(variable.field) ?? []), variable.name]);
  }
  const grouped = new Set([...byField.values()].flat());
  const others = descriptor.real.optionalEnv.map((variable) => variable.name).filter((name) => isSet(name) && !grouped.has(name));
  const switchPrefix = `${descriptor.id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_CARD_`;
  const switches = Object.keys(env).filter((name) => name.startsWith(switchPrefix) && isSet(name) && !grouped.has(name) && !others.includes(name));
  return [...byField.values(), ...[...others, ...switches].map((name) => [name])];
}
