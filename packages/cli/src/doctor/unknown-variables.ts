import { SWITCH_ENV_VARIABLES, switchEnvName, tickEnvName } from '@progresscard/core/plugin';
import type { AnyChannelDescriptor, Env } from '../channels/descriptor.js';

/** Edits (insert, delete, replace one letter) a name may be from a known one and still read as its misspelling. */
const TYPO_DISTANCE = 2;

/**
 * The channel's variables progresscard reads: its required and optional ones, its plugin's
 * variables, its feature switches (`<ID>_CARD_PROGRESSIVE`…) and its tick (`<ID>_CARD_TOOL_TICK_MS`).
 */
function knownVariables(descriptor: AnyChannelDescriptor): string[] {
  return [
    ...new Set([
      ...descriptor.real.requiredEnv,
      ...descriptor.real.optionalEnv.map((variable) => variable.name),
      ...(descriptor.real.variables ?? []).map((variable) => variable.name),
      ...SWITCH_ENV_VARIABLES.map((variable) => switchEnvName(descriptor.id, variable.suffix)),
      tickEnvName(descriptor.id),
    ]),
  ];
}

/** Levenshtein distance of `a` and `b` (one row at a time). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/** The known name closest to `name`: fewest edits, then the one that starts like it (`…_FOOTER` → `…_FOOTER_STYLE`). */
function closest(name: string, known: readonly string[]): { readonly name: string; readonly edits: number } | undefined {
  let best: { name: string; edits: number; prefix: boolean } | undefined;
  for (const candidate of known) {
    const edits = distance(name, candidate);
    const prefix = candidate.startsWith(name) || name.startsWith(candidate);
    if (!best || (prefix && !best.prefix) || (prefix === best.prefix && edits < best.edits)) best = { name: candidate, edits, prefix };
  }
  return best;
}

/**
 * Variables set in `env` that look meant for the channel but that progresscard does not read, each
 * as one line naming the closest known name: every `<ID>_CARD_*` name that is not a feature switch
 * or the tick (the core ignores it silently, e.g. `DISCORD_CARD_FOOTER` for
 * `DISCORD_CARD_FOOTER_STYLE`), and any other `<ID>_*` name within {@link TYPO_DISTANCE} edits of a
 * known one (`SLACK_CHANEL_ID`). A pool app's suffix (`FEISHU_APP_ID_2`) is known with its name.
 * Other `<ID>_*` names are left alone: other tools read them (`SLACK_SIGNING_SECRET`).
 */
export function unknownVariables(descriptor: AnyChannelDescriptor, env: Env): string[] {
  const prefix = `${descriptor.id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
  const known = knownVariables(descriptor);
  const isKnown = (name: string) => known.includes(name) || known.includes(name.replace(/_\d+$/, ''));
  const lines: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(prefix) || env[name] === undefined || isKnown(name)) continue;
    const near = closest(name, known);
    const isSwitch = name.startsWith(`${prefix}CARD_`);
    if (!isSwitch && (!near || near.edits > TYPO_DISTANCE)) continue;
    lines.push(`unknown variable ${name} is ignored${near ? ` (did you mean ${near.name}?)` : ''}`);
  }
  return lines;
}
