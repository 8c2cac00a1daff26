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
  const result = AgentEventSchema.safeParse(input);
  if (result.success) return result.data;
  const problem = describeInvalidInput(input, result.error);
  const type = input && typeof input === 'object' && typeof (input as { type?: unknown }).type === 'string'
    ? (input as { type: string }).type
    : undefined;
  const where = [type, ...problem.path.map(String)].filter(Boolean).join('.') || '(event)';
  throw new EventParseError(`invalid agent event: ${where} = ${problem.shown} (${problem.reason})`, problem.path, problem.value, input);
}
