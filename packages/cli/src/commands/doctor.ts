import { appEnv } from '@progresscard/core';
import type { AnyChannelDescriptor, AnyChannelPlugin, Env } from '../channels/descriptor.js';
import { startEmulators } from '../channels/emulated.js';
import { channelDescriptor, type ChannelId } from '../channels/index.js';
import { checkChannel } from '../doctor/checks.js';
import { formatDoctorReport, type DoctorChannelReport, type DoctorReport, type DoctorWarning } from '../doctor/report.js';
import { EXIT } from '../errors.js';
import type { CliIO } from '../io.js';

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  readonly channels: readonly ChannelId[];
  /** Check against the embedded emulators instead of the platforms named by the environment. */
  readonly emulator: boolean;
  /** Print the report as JSON ({@link DoctorReport}). */
  readonly json: boolean;
  /** Print every detail line. */
  readonly explain: boolean;
  /** Do the send → update → final round trip (default true). */
  readonly send: boolean;
  /** How long the round trip may take per channel, ms (default 30 000). */
  readonly deliveryTimeoutMs?: number;
  /** Test seam: change each plugin before it is checked (e.g. break its renderer). */
  readonly plugin?: (plugin: AnyChannelPlugin) => AnyChannelPlugin;
}

/**
 * `progresscard doctor`: checks each channel layer by layer (config and env, credentials, renderer,
 * guards, delivery, budget, switches) and prints the report. Resolves with exit code 0 only when
 * every check passed (warnings allowed), else 1.
 */
export async function runDoctor(options: DoctorOptions, io: CliIO): Promise<number> {
  const report = await doctorReport(options, io);
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report, options.explain));
  return report.ok ? EXIT.ok : EXIT.failed;
}

/** The report of {@link runDoctor} without printing it. */
export async function doctorReport(options: DoctorOptions, io: CliIO): Promise<DoctorReport> {
  const emulators = options.emulator ? await startEmulators(options.channels) : undefined;
  try {
    const channels: DoctorChannelReport[] = [];
    for (const id of options.channels) {
      const descriptor = channelDescriptor(id);
      const emulated = emulators?.channel(id);
      // With --emulator the emulator's variables stand in for the credentials; switches still come from the environment.
      const env = emulated ? { ...io.env, ...Object.fromEntries(emulated.env().map((line) => [line.name, line.value])) } : io.env;
      // Apps 2, 3… of the channel (`FEISHU_APP_ID_2`…): each is checked as a channel of its own.
      const apps = emulated ? [env] : appsOf(descriptor, env);
      for (const [index, app] of apps.entries()) {
        const named = apps.length === 1 ? { channel: id, label: descriptor.label } : { channel: `${id}-app${index + 1}`, label: `${descriptor.label} app ${index + 1}` };
        if (typeof app === 'string') {
          channels.push({ ...named, ok: false, checks: [{ layer: 'config', status: 'fail', summary: app, details: [] }] });
          continue;
        }
        const variableName = index === 0 ? undefined : appVariableName(env, app, index + 1);
        const { checks, plan } = await checkChannel({ descriptor, env: app, send: options.send, deliveryTimeoutMs: options.deliveryTimeoutMs ?? 30_000, plugin: options.plugin, variableName });
        const ok = checks.every((c) => c.status === 'pass' || c.status === 'warn');
        channels.push({ ...named, ok, checks, ...(plan ? { plan } : {}) });
      }
    }
    const warnings: DoctorWarning[] = channels.flatMap((c) =>
      c.checks.filter((check) => check.status === 'warn').map((check) => ({ channel: c.channel, layer: check.layer, message: check.summary })),
    );
    return { ok: channels.every((c) => c.ok), mode: options.emulator ? 'emulator' : 'real', channels, warnings };
  } finally {
    await emulators?.close();
  }
}

/**
 * The environment of each app of a channel: app 1's is `env`; app n's (n ≥ 2, variables with the
 * suffix `_<n>`, see `appsFromEnv`) is `env` as that app sees it, or a line naming the required
 * variables it lacks (with their suffix).
 */
function appsOf(descriptor: AnyChannelDescriptor, env: Env): Array<Env | string> {
  const variables = descriptor.real.variables;
  const apps: Array<Env | string> = [env];
  if (!variables) return apps;
  for (let n = 2; ; n++) {
    const seen = appEnv(variables, env, n);
    if (!seen) return apps;
    const missing = variables.filter((variable) => variable.required && !env[`${variable.name}_${n}`]?.trim()).map((variable) => `${variable.name}_${n}`);
    apps.push(missing.length > 0 ? `missing ${missing.join(', ')} (app ${n} is configured: a variable with the suffix _${n} is set)` : (seen as Env));
  }
}

/**
 * The name app `n` (≥ 2) sets a channel variable under: `FEISHU_APP_ID_2`, or, for an optional
 * setting app n takes from app 1 (`FEISHU_DOMAIN`, see `appEnv`), `FEISHU_DOMAIN (app 1's)`.
 * `env` is the environment, `app` the same as app n sees it.
 */
function appVariableName(env: Env, app: Env, n: number): (name: string) => string {
  return (name) => (env[`${name}_${n}`] === undefined && app[name] !== undefined ? `${name} (app 1's)` : `${name}_${n}`);
}
