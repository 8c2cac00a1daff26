import { showValue } from '../shared/show-value.js';
import type { StandardSchemaV1 } from '../shared/standard-schema.js';

/** The first problem of a failed validation (zod or any Standard Schema), in words a user can act on. */
export interface InputProblem {
  /** Dotted path of the bad field (`budget.0.limit`), or `(input)` when the input itself is bad. */
  readonly field: string;
  readonly path: readonly PropertyKey[];
  /** The value found there (`undefined` when missing). */
  readonly value: unknown;
  /** The value as shown in messages: JSON, cut to 80 characters; `<hidden>` for secret and unknown fields. */
  readonly shown: string;
  /** The validator's message, e.g. zod's `Too small: expected string to have >=1 characters`. */
  readonly reason: string;
  /** True when the field is not part of the schema (zod's `unrecognized_keys`). */
  readonly unknownField: boolean;
}

/** zod's extra issue fields for an unknown key (zod issues are Standard Schema issues plus a `code`). */
interface UnrecognizedKeysIssue extends StandardSchemaV1.Issue {
  readonly code: 'unrecognized_keys';
  readonly keys: readonly PropertyKey[];
}

function isUnrecognizedKeys(issue: StandardSchemaV1.Issue): issue is UnrecognizedKeysIssue {
  const fields = issue as { code?: unknown; keys?: unknown };
  return fields.code === 'unrecognized_keys' && Array.isArray(fields.keys);
}

/** An issue's path as plain keys (Standard Schema allows `{ key }` segments). */
function keysOf(issue: StandardSchemaV1.Issue): PropertyKey[] {
  return (issue.path ?? []).map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Describes the first issue of a failed validation against the input that failed: the field, its
 * value, and why. Takes a `ZodError` or a Standard Schema failure result (anything with `issues`).
 * Values of `secretFields` (top-level keys such as `appSecret`) are shown as `<hidden>`.
 * An unknown key is reported as the key itself, its value `<hidden>` too: it may be any other
 * secret of the user's app config (Feishu `encryptKey`, `verificationToken`, a misspelt `app_secret`).
 * A failure without issues is described as `(input)` with the reason `invalid`.
 */
export function describeInvalidInput(
  input: unknown,
  failure: { readonly issues: readonly StandardSchemaV1.Issue[] },
  secretFields: ReadonlySet<string> = new Set(),
): InputProblem {
  const issue: StandardSchemaV1.Issue = failure.issues[0] ?? { message: 'invalid' };
  const path = keysOf(issue);
  const unknownField = isUnrecognizedKeys(issue);
  if (unknownField) path.push(...issue.keys);
  const value = valueAt(input, path);
  const secret = (unknownField || secretFields.has(String(path[0]))) && value !== undefined;
  return {
    field: path.map(String).join('.') || '(input)',
    path,
    value,
    shown: secret ? '<hidden>' : showValue(value),
    reason: issue.message,
    unknownField,
  };
}
