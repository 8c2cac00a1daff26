import type { AnyChannelPlugin } from '../channels/descriptor.js';
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
      const { checks, plan } = await checkChannel({
        descriptor,
        env,
        send: options.send,
        deliveryTimeoutMs: options.deliveryTimeoutMs ?? 30_000,
        plugin: options.plugin,
      });
      const ok = checks.every((c) => c.status === 'pass' || c.status === 'warn');
      channels.push({ channel: id, label: descriptor.label, ok, checks, ...(plan ? { plan } : {}) });
    }
    const warnings: DoctorWarning[] = channels.flatMap((c) =>
      c.checks.filter((check) => check.status === 'warn').map((check) => ({ channel: c.channel, layer: check.layer, message: check.summary })),
    );
    return { ok: channels.every((c) => c.ok), mode: options.emulator ? 'emulator' : 'real', channels, warnings };
  } finally {
    await emulators?.close();
  }
}
