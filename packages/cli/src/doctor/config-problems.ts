import type { AnyChannelDescriptor, AnyChannelPlugin, Env } from '../channels/descriptor.js';

/**
 * Every bad value of a channel's configuration that `doctor` can find in one run. Building the
 * plugin stops at its first bad value, so after a failed build (or with a required variable
 * missing) each value is tried again on its own:
 * - each set required variable, with the channel's stand-ins (`real.standIns`, the emulator's app)
 *   for the other required ones;
 * - each set optional variable (with the variables that fill the same config field, such as
 *   `FEISHU_CALLBACKS` with its verification token) and each set feature switch variable
 *   (`FEISHU_CARD_*`), beside the required values, a missing or bad one stood in for.
 * A problem shows once, however many tries find it; a problem that names a stood-in variable is
 * about the stand-in, not the user's value, and is left out.
 */

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The outcome of {@link configProblems}: the plugin, or every distinct problem found (the build's own first). */
export type ConfigOutcome = { readonly plugin: AnyChannelPlugin; readonly problems?: undefined } | { readonly plugin?: undefined; readonly problems: readonly string[] };

/**
 * Builds the channel's plugin from `env` with `build`; when that throws, or a required variable is
 * missing, tries each value on its own (see the file comment) and collects every distinct message.
 * `problems` is empty when the only problem is the missing variables (the caller names them).
 */
export function configProblems(descriptor: AnyChannelDescriptor, env: Env, build: (env: Env) => AnyChannelPlugin): ConfigOutcome {
  const isSet = (name: string) => Boolean(env[name]?.trim());
  const required = descriptor.real.requiredEnv;
  const problems: string[] = [];
  const note = (text: string) => void (problems.includes(text) ? undefined : problems.push(text));
  if (required.every(isSet)) {
    try {
      return { plugin: build(env) };
    } catch (error) {
      note(message(error));
    }
  }
  const standIns = descriptor.real.standIns;
  const canStandIn = standIns !== undefined && required.every((name) => standIns[name] !== undefined);
  const groups = optionalGroups(descriptor, env);
  const tried = new Set(groups.flat());
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !tried.has(name)));
  /** Builds from `values`; a problem that names none of `stoodIn` is noted. Returns whether it built. */
  const attempt = (values: Env, stoodIn: readonly string[]): boolean => {
    try {
      build(values);
      return true;
    } catch (error) {
      const text = message(error);
      if (!stoodIn.some((name) => namesVariable(text, name))) note(text);
      return false;
    }
  };
  if (!canStandIn) {
    // Without stand-ins a missing required variable cannot be filled: nothing else can be tried.
    if (!required.every(isSet)) return { problems };
    for (const group of groups) attempt({ ...rest, ...pick(env, group) }, []);
    return { problems };
  }
  // Each required value alone, the others stood in for: a bad one shows even beside another bad one.
  const bad = new Set(required.filter((name) => !isSet(name)));
  for (const name of required.filter(isSet)) {
    const others = required.filter((other) => other !== name);
    if (!attempt({ ...rest, ...pick(standIns, others) }, others)) bad.add(name);
  }
  const base = { ...rest, ...pick(standIns, [...bad]) };
  for (const group of groups) attempt({ ...base, ...pick(env, group) }, [...bad]);
  return { problems };
}

function pick(values: Env, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, values[name]]));
}

/** Whether `text` names the variable `name` (not a longer name that starts with it, such as `name_2`). */
function namesVariable(text: string, name: string): boolean {
  return new RegExp(`\\b${name}\\b`).test(text);
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
