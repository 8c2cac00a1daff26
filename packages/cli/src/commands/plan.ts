import { resolveChannelSettings, silentLogger } from '@progresscard/core';
import { startEmulators } from '../channels/emulated.js';
import { channelDescriptor, type ChannelId } from '../channels/index.js';
import { EXIT } from '../errors.js';
import type { CliIO } from '../io.js';
import { budgetPlan, formatPlan, type PlanResult } from '../plan/budget-plan.js';

/** Options of {@link runPlan}. */
export interface PlanOptions {
  readonly channels: readonly ChannelId[];
  /** Tick of running tools, ms (default: the channel's). */
  readonly tickMs?: number;
  /** Processes sharing one app's budget (default 1). */
  readonly processes?: number;
  /** Apps of each channel the cards are spread over (default 1). */
  readonly apps?: number;
  /** Runs with running tools to plan for: prints how many apps keep them fully fresh. */
  readonly runs?: number;
  /** Typical run length, minutes (default 10). */
  readonly runMinutes?: number;
  /** Calls a month (default: the platform's known quota, e.g. DingTalk 5000). */
  readonly monthlyQuota?: number;
  /** Calls one run may spend (stretches the tick). */
  readonly runCallCap?: number;
  readonly json: boolean;
}

/**
 * `progresscard plan`: from each channel's declared budget windows and tick, how many runs with
 * running tools stay fully fresh, how stale cards get at 2×, 10×, 100× that load, and (with a
 * monthly quota) how many runs a month fit; with `runs`, how many apps keep that many runs fresh.
 * Resolves with 0.
 */
export async function runPlan(options: PlanOptions, io: CliIO): Promise<number> {
  // The channel's own defaults come from its plugin; an emulator plugin is the cheapest way to build one.
  const emulators = await startEmulators(options.channels);
  try {
    const plans: Array<{ channel: string; plan: PlanResult }> = [];
    for (const id of options.channels) {
      const descriptor = channelDescriptor(id);
      const plugin = emulators.channel(id)!.plugin({ switchEnv: io.env });
      const settings = resolveChannelSettings(plugin, io.env, silentLogger);
      const plan = budgetPlan({
        budget: settings.budget,
        tickMs: options.tickMs ?? settings.tickMs,
        processes: options.processes,
        apps: options.apps,
        runs: options.runs,
        runMs: options.runMinutes === undefined ? undefined : options.runMinutes * 60_000,
        monthlyQuota: options.monthlyQuota ?? plugin.switches?.monthlyQuota ?? descriptor.doctor.monthlyQuota,
        runCallCap: options.runCallCap ?? plugin.switches?.runCallCap,
        callsPerOperation: plugin.transport.callsPerOperation,
      });
      plans.push({ channel: id, plan });
      if (!options.json) io.stdout.write(`${formatPlan(descriptor.label, plan)}\n`);
    }
    if (options.json) io.stdout.write(`${JSON.stringify({ channels: plans }, null, 2)}\n`);
    return EXIT.ok;
  } finally {
    await emulators.close();
  }
}
