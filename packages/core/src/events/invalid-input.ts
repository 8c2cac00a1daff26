import type { z } from 'zod';

/** The first problem of a failed zod parse, in words a user can act on. */
export interface InputProblem {
  /** Dotted path of the bad field (`budget.0.limit`), or `(input)` when the input itself is bad. */
  readonly field: string;
  readonly path: readonly PropertyKey[];
  /** The value found there (`undefined` when missing). */
  readonly value: unknown;
  /** The value as shown in messages: JSON, cut to 80 characters; `<hidden>` for secret and unknown fields. */
  readonly shown: string;
  /** zod's message, e.g. `Too small: expected string to have >=1 characters`. */
  readonly reason: string;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A value for an error message: JSON cut to 80 characters; `undefined (missing)` when absent. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined (missing)';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Describes the first issue of a zod error against the input that failed: the field, its value,
 * and why. Values of `secretFields` (top-level keys such as `appSecret`) are shown as `<hidden>`.
 * An unknown key is reported as the key itself, its value `<hidden>` too: it may be any other
 * secret of the user's app config (Feishu `encryptKey`, `verificationToken`, a misspelt `app_secret`).
 */
export function describeInvalidInput(input: unknown, error: z.ZodError, secretFields: ReadonlySet<string> = new Set()): InputProblem {
  const issue = error.issues[0]!;
  const path: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys') path.push(...issue.keys);
  const value = valueAt(input, path);
  const secret = (issue.code === 'unrecognized_keys' || secretFields.has(String(path[0]))) && value !== undefined;
  return {
    field: path.map(String).join('.') || '(input)',
    path,
    value,
    shown: secret ? '<hidden>' : showValue(value),
    reason: issue.message,
  };
}
