import { z } from 'zod';
import { describeInvalidInput } from '../../events/invalid-input.js';
import { MAX_TIMER_MS } from '../../shared/timer-duration.js';
import type { ChannelSettings } from '../contract.js';
import type { StandardSchemaV1 } from '../../shared/standard-schema.js';

/**
 * Bad channel config: the message names the channel, the field and the value, e.g.
 * `feishu tickMs = 0 (Too small: expected number to be >0)`. Secret and unknown fields show
 * their value as `<hidden>`. Plugins subclass it (`FeishuConfigError`, `DingTalkConfigError`).
 */
export class ChannelConfigError extends Error {
  override readonly name: string = 'ChannelConfigError';
  constructor(
    /** The channel id, e.g. `feishu`. */
    readonly channelId: string,
    /** Dotted path of the bad field, e.g. `budget.0.limit`; `(config)` when the config itself is bad. */
    readonly field: string,
    /** The value as shown (`<hidden>` for secrets). */
    readonly shown: string,
    /** Why it is refused. */
    readonly reason: string,
  ) {
    super(`${channelId} ${field} = ${shown} (${reason})`);
  }
}

/** What {@link parseChannelConfig} needs besides the schema and the input. */
export interface ParseChannelConfigOptions {
  /** Top-level fields whose values are never shown (e.g. `appSecret`). */
  readonly secretFields?: ReadonlySet<string>;
  /** Builds the error thrown (default: a {@link ChannelConfigError}). */
  readonly error?: (channelId: string, field: string, shown: string, reason: string) => ChannelConfigError;
}

/**
 * Validates a channel's config with its schema and applies the defaults. The schema is any
 * synchronous Standard Schema ({@link StandardSchemaV1}): zod 3.24+ or 4, Valibot, ArkType, or a
 * hand-written object, so a plugin is not tied to the core's zod.
 * @returns the schema's output (its defaults and transforms applied).
 * @throws ChannelConfigError (or `options.error`'s subclass) naming the channel, the first bad field,
 *   its value and why; an unknown field's reason is `unknown field` and its value `<hidden>`.
 * @throws TypeError naming the channel when the schema validates asynchronously (returns a Promise).
 */
export function parseChannelConfig<S extends StandardSchemaV1>(
  channelId: string,
  schema: S,
  input: unknown,
  options: ParseChannelConfigOptions = {},
): StandardSchemaV1.InferOutput<S> {
  const result = schema['~standard'].validate(input);
  if (result instanceof Promise) {
    throw new TypeError(`${channelId} config schema validates asynchronously; a channel's config schema must validate synchronously`);
  }
  if (!result.issues) return result.value as StandardSchemaV1.InferOutput<S>;
  const problem = describeInvalidInput(input, result, options.secretFields);
  const field = problem.field === '(input)' ? '(config)' : problem.field;
  const reason = problem.unknownField ? 'unknown field' : problem.reason;
  throw (options.error ?? ((...args) => new ChannelConfigError(...args)))(channelId, field, problem.shown, reason);
}

const positiveInteger = z.number().int().positive();
const verbosity = z.enum(['quiet', 'compact', 'detailed']);
const nonNegativeInteger = z.number().int().nonnegative();
/** A duration that reaches a timer: at most setTimeout's limit (a longer one would fire after 1 ms). */
const timerLimit = [MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (setTimeout's limit)` }] as const;

/**
 * The timing fields every channel's config takes (all optional, milliseconds, each at most
 * 2 147 483 647: setTimeout's limit), as zod 4 fields to
 * spread into a plugin's zod 4 config schema (`z.object({ ...TIMING_OVERRIDES_SHAPE, … })`). A
 * plugin on another validator (or another zod major) declares the same fields itself, or lets them
 * through and reads them with {@link parseTimingOverrides}, which needs no schema:
 * - `tickMs`: how often running tools' elapsed times refresh, a positive integer;
 * - `perCardIntervalMs`: least time between two requests for one card, ≥ 0;
 * - `debounceMs`: streamed text reaches the card at least this often, ≥ 0;
 * - `budget`: the channel's rate-limit windows, at least one `{ limit, intervalMs }` of positive integers;
 * - `verbosity`: how much cards show, `quiet` | `compact` | `detailed`, or per chat type
 *   `{ direct?, group? }` (see `ChannelSettings.verbosity`);
 * - `callTimeoutMs`: how long one platform call may take before it is given up as transient, a
 *   positive integer (see `ChannelSettings.callTimeoutMs`).
 */
export const TIMING_OVERRIDES_SHAPE = {
  tickMs: positiveInteger.max(...timerLimit).optional(),
  perCardIntervalMs: nonNegativeInteger.max(...timerLimit).optional(),
  debounceMs: nonNegativeInteger.max(...timerLimit).optional(),
  budget: z.array(z.object({ limit: positiveInteger, intervalMs: positiveInteger.max(...timerLimit) }).strict()).min(1).optional(),
  verbosity: z.union([verbosity, z.object({ direct: verbosity.optional(), group: verbosity.optional() }).strict()]).optional(),
  callTimeoutMs: positiveInteger.max(...timerLimit).optional(),
} as const;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function carriesCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * A base-URL config field as a zod 4 schema (a platform's API base, an emulator's URL): an http or
 * https URL without a user name or password, which would end up in logs and error messages.
 * Its errors: `must be an http(s) URL`, `must not carry a user name or password (user:password@)`.
 */
export const HttpUrlSchema = z
  .string()
  .refine(isHttpUrl, 'must be an http(s) URL')
  .refine((value) => !carriesCredentials(value), 'must not carry a user name or password (user:password@)');

/** Schema of the timing overrides alone (other keys of the input are ignored). */
export const TimingOverridesSchema = z.object(TIMING_OVERRIDES_SHAPE);

/** The timing fields of a config, as a plugin's `overrides`. */
export type TimingOverrides = Partial<ChannelSettings>;

/**
 * The timing overrides of a channel's config (`tickMs`, `perCardIntervalMs`, `debounceMs`,
 * `budget`, `verbosity`, `callTimeoutMs`; other keys are ignored), only those that are set. One bad value is one error, the same
 * for every plugin and the memory channel; values from the env (`<CHANNEL>_CARD_TOOL_TICK_MS`) are
 * not read here (the core warns and falls back for those).
 * @throws ChannelConfigError naming the channel, field and value, e.g. `memory tickMs = 0 (Too small: …)`.
 */
export function parseTimingOverrides(channelId: string, input: unknown): TimingOverrides {
  const parsed = parseChannelConfig(channelId, TimingOverridesSchema, input ?? {});
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as TimingOverrides;
}
