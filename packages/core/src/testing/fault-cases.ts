import { readFileSync } from 'node:fs';
import type { ScriptedEvent } from './play-events.js';

/**
 * A field fault case, one JSON object a line of a `faults*.jsonl` file: events that broke live
 * cards somewhere, what the platform answers, and the behaviour that is right.
 */
export interface FaultCase {
  /** E.g. `F04`. */
  readonly id: string;
  /** The kind of fault the case is one instance of. */
  readonly kind: string;
  /** `feishu`, `dingtalk`, or `core` for channel-independent kinds. */
  readonly channel: string;
  /** The script; `at` is ms from the run start. */
  readonly events: readonly (ScriptedEvent & { readonly at: number })[];
  /** Platform answers, e.g. `FEISHU patch #2 -> 400 {"code":230020}`. */
  readonly platform: readonly string[];
  /** The right behaviour, in words. */
  readonly expect: readonly string[];
}

/** Fault cases by id, in file order. */
export type FaultCases = ReadonlyMap<string, FaultCase>;

function fail(where: string, why: string): never {
  throw new Error(`${where}: ${why}`);
}

function strings(value: unknown, where: string, field: string): readonly string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) fail(where, `${field} must be an array of strings, got ${JSON.stringify(value)}`);
  return value as string[];
}

function parseCase(value: unknown, where: string): FaultCase {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'a case must be a JSON object');
  const c = value as Record<string, unknown>;
  for (const field of ['id', 'kind'] as const) if (typeof c[field] !== 'string' || c[field] === '') fail(where, `${field} must be a non-empty string, got ${JSON.stringify(c[field])}`);
  if (!Array.isArray(c.events)) fail(where, `events must be an array, got ${JSON.stringify(c.events)}`);
  const events = c.events.map((event: unknown, i) => {
    const e = event as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e.type !== 'string') fail(where, `events[${i}] must be an object with a string type`);
    if (typeof e.at !== 'number' || !Number.isFinite(e.at) || e.at < 0) fail(where, `events[${i}].at must be ms ≥ 0 from the run start, got ${JSON.stringify(e.at)}`);
    return e as ScriptedEvent & { at: number };
  });
  return {
    id: c.id as string,
    kind: c.kind as string,
    channel: typeof c.channel === 'string' ? c.channel : 'core',
    events,
    platform: strings(c.platform ?? [], where, 'platform'),
    expect: strings(c.expect ?? [], where, 'expect'),
  };
}

/**
 * Reads fault cases from JSON Lines text (blank lines skipped). Strings are read with a JSON
 * parser, so `\ud83d`-style escapes (lone surrogates on purpose) arrive as written.
 * @throws Error naming the source, the line and the field of a malformed case, or a repeated id.
 */
export function parseFaultCases(text: string, source = 'fault cases'): FaultCases {
  const cases = new Map<string, FaultCase>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      fail(where, `invalid JSON (${(error as Error).message})`);
    }
    const parsed = parseCase(value, where);
    if (cases.has(parsed.id)) fail(where, `repeated case id ${parsed.id}`);
    cases.set(parsed.id, parsed);
  }
  return cases;
}

/**
 * Reads a fault-case file (a path or a `file:` URL, e.g. `new URL('./fixtures/faults.jsonl', import.meta.url)`).
 * @throws Error when the file cannot be read, or as {@link parseFaultCases}.
 */
export function loadFaultCases(file: string | URL): FaultCases {
  return parseFaultCases(readFileSync(file, 'utf8'), String(file));
}

/**
 * One case by id.
 * @throws Error listing the ids there are when `id` is not among them.
 */
export function faultCase(cases: FaultCases, id: string): FaultCase {
  const found = cases.get(id);
  if (!found) throw new Error(`no fault case ${id} (there are ${[...cases.keys()].join(', ') || 'none'})`);
  return found;
}
