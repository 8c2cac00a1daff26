import type { PlanResult } from '../plan/budget-plan.js';

/**
 * The `progresscard doctor` report. Its JSON form (`--json`) is a stable, documented shape (see the
 * CLI README): fields are only ever added.
 */

/** The layer a check looks at; a failing check names the layer at fault. */
export type DoctorLayer = 'config' | 'credentials' | 'scopes' | 'renderer' | 'guards' | 'delivery' | 'callbacks' | 'budget' | 'switches';

/** Every layer, in the order checks run. */
export const DOCTOR_LAYERS: readonly DoctorLayer[] = ['config', 'credentials', 'scopes', 'renderer', 'guards', 'delivery', 'callbacks', 'budget', 'switches'];

/**
 * `pass`: fine; `warn`: fine but worth knowing (counts as passing); `fail`: broken; `skip`: not run
 * because an earlier layer failed (counts as failing: nothing was verified).
 */
export type DoctorStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One check of one channel. */
export interface DoctorCheck {
  readonly layer: DoctorLayer;
  readonly status: DoctorStatus;
  /** One line, e.g. `FEISHU_CHAT_ID missing` or `token accepted`. Never a secret's value. */
  readonly summary: string;
  /** More lines (problems found, figures). */
  readonly details: readonly string[];
}

/** The checks of one channel. */
export interface DoctorChannelReport {
  /** Channel id, e.g. `feishu`. */
  readonly channel: string;
  readonly label: string;
  /** True when every check passed (or warned). */
  readonly ok: boolean;
  /** One per layer, in {@link DOCTOR_LAYERS} order. */
  readonly checks: readonly DoctorCheck[];
  /** The budget figures, when the config could be read. */
  readonly plan?: PlanResult;
}

/** A warning, lifted out of the checks for quick reading. */
export interface DoctorWarning {
  readonly channel: string;
  readonly layer: DoctorLayer;
  readonly message: string;
}

/** What `doctor --json` prints. */
export interface DoctorReport {
  /** True only when every check of every channel passed (warnings allowed); the exit code is 0 then. */
  readonly ok: boolean;
  /** `emulator` (`--emulator`) or `real` (the platforms named by the environment). */
  readonly mode: 'emulator' | 'real';
  readonly channels: readonly DoctorChannelReport[];
  readonly warnings: readonly DoctorWarning[];
}

const ICON: Readonly<Record<DoctorStatus, string>> = { pass: '✅', warn: '⚠️ ', fail: '❌', skip: '⏭ ' };

/** The report for a terminal; `explain` adds every detail line. */
export function formatDoctorReport(report: DoctorReport, explain: boolean): string {
  const lines: string[] = [];
  for (const channel of report.channels) {
    lines.push(`${channel.ok ? '✅' : '❌'} ${channel.label} (${channel.channel})`);
    for (const check of channel.checks) {
      lines.push(`  ${ICON[check.status]} ${check.layer.padEnd(11)} ${check.summary}`);
      if (explain || check.status === 'fail') for (const detail of check.details) lines.push(`       ${detail}`);
    }
  }
  lines.push(report.ok ? `doctor: every check passed${warningCount(report) > 0 ? ` (${warningCount(report)} with warnings)` : ''}` : `doctor: failed (${failedLayers(report).join(', ')})`);
  return `${lines.join('\n')}\n`;
}

/** `feishu/config`-style names of the failed checks. */
function failedLayers(report: DoctorReport): string[] {
  return report.channels.flatMap((c) => c.checks.filter((check) => check.status === 'fail').map((check) => `${c.channel}/${check.layer}`));
}

function warningCount(report: DoctorReport): number {
  return report.channels.reduce((n, c) => n + c.checks.filter((check) => check.status === 'warn').length, 0);
}
