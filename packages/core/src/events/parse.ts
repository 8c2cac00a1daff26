import { boundedJson } from '../shared/bounded-json.js';
import { describeInvalidInput } from './invalid-input.js';
import { AgentEventSchema, type AgentEvent } from './contract.js';

/**
 * Thrown by {@link parseEvent} for input that is not a valid agent event. The message names the
 * path and the bad value, e.g. `invalid agent event: tool.started.callId = "" (Too small: …)`.
 */
export class EventParseError extends Error {
  override readonly name = 'EventParseError';
  constructor(
    message: string,
    /** Path of the first bad field, e.g. `['callId']`; empty when the input itself is bad. */
    readonly path: ReadonlyArray<PropertyKey>,
    /** The value found at {@link path}. */
    readonly value: unknown,
    /** The input as given. */
    readonly input: unknown,
  ) {
    super(message);
  }
}

/**
 * Validates unknown input (e.g. a parsed JSON line) as an {@link AgentEvent}.
 *
 * @throws {@link EventParseError} naming the first bad path and its value.
 */
export function parseEvent(input: unknown): AgentEvent {
  let result: ReturnType<typeof AgentEventSchema.safeParse>;
  try {
    result = AgentEventSchema.safeParse(input);
  } catch (error) {
    // The validator itself threw: a value that cannot be read (a throwing getter or Proxy).
    return parseUnreadable(input, error);
  }
  if (result.success) return withArgsText(result.data);
  return refuseInvalid(input, result);
}

/**
 * Tool-call `args` with a `toJSON` become their bounded JSON text, so that one that throws shows
 * as `"[unreadable]"` on the card, exactly like an `args` object that cannot be read at all.
 */
function withArgsText(event: AgentEvent): AgentEvent {
  if (event.type !== 'tool.started' || typeof event.args !== 'object' || typeof (event.args as { toJSON?: unknown }).toJSON !== 'function') return event;
  return { ...event, args: boundedJson(event.args, MAX_ARGS_TEXT) };
}

/** Every event `type` the contract knows, in contract order. */
const EVENT_TYPES: readonly string[] = AgentEventSchema.options.map((option) => option.shape.type.value);

/**
 * @throws {@link EventParseError} describing the first issue of `result`. The field is prefixed
 *   with the event's type only when that type is known (`tool.started.callId`); a bad `type` itself
 *   (misspelt, missing, not a string) is named as `type` with the accepted types listed.
 */
function refuseInvalid(input: unknown, result: { readonly error: Parameters<typeof describeInvalidInput>[1] }): never {
  const problem = describeInvalidInput(input, result.error);
  const given = input && typeof input === 'object' ? (input as { type?: unknown }).type : undefined;
  const type = typeof given === 'string' && EVENT_TYPES.includes(given) ? given : undefined;
  const where = [type, ...problem.path.map(String)].filter(Boolean).join('.') || '(event)';
  const reason = problem.field === 'type' && type === undefined ? badTypeReason(problem.value) : problem.reason;
  throw new EventParseError(`invalid agent event: ${where} = ${problem.shown} (${reason})`, problem.path, problem.value, input);
}

/** Why a `type` that is no event type was refused, with the accepted ones. */
function badTypeReason(value: unknown): string {
  const what = value === undefined ? 'every event needs a type' : typeof value === 'string' ? 'not an event type' : 'must be a string';
  return `${what}; expected one of ${EVENT_TYPES.join(', ')}`;
}

/** Longest text an unreadable tool-call `args` object becomes (the card keeps at most 16 384 characters). */
const MAX_ARGS_TEXT = 16_384;

/**
 * An event whose validation threw. Its fields are read one by one; an object `args` becomes its
 * bounded JSON text (what the card would show of it anyway: unreadable parts as `"[unreadable]"`),
 * like an `args` whose `toJSON` throws. Anything still unreadable is refused naming the field.
 */
function parseUnreadable(input: unknown, error: unknown): AgentEvent {
  const refuse = (field: string): never => {
    throw new EventParseError(`invalid agent event: ${field} = [unreadable] (reading it threw: ${describeThrown(error)})`, field === '(event)' ? [] : [field], undefined, input);
  };
  let keys: string[] = [];
  try {
    keys = Object.keys(input as object);
  } catch {
    refuse('(event)');
  }
  const fields: Record<string, unknown> = {};
  for (const key of keys) {
    try {
      fields[key] = (input as Record<string, unknown>)[key];
    } catch {
      refuse(key);
    }
  }
  if (typeof fields.args === 'object' && fields.args !== null) fields.args = boundedJson(fields.args, MAX_ARGS_TEXT);
  let result: ReturnType<typeof AgentEventSchema.safeParse> | undefined;
  try {
    result = AgentEventSchema.safeParse(fields);
  } catch {
    refuse(keys.find((key) => isUnreadable(fields[key])) ?? '(event)');
  }
  if (result?.success) return withArgsText(result.data);
  return refuseInvalid(fields, result!);
}

function isUnreadable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    for (const key of Object.keys(value)) void (value as Record<string, unknown>)[key];
    return false;
  } catch {
    return true;
  }
}

function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an unprintable error';
  }
}
