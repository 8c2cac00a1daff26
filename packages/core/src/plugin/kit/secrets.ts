/** What a hidden secret shows instead of its value (in `plugin.config`, errors, `inspect`, JSON). */
export const HIDDEN = '<hidden>';

/**
 * A copy of `value` with every secret path replaced by `<hidden>`: a path is a top-level field
 * (`appSecret`) or a dotted path into nested objects (`callbacks.apiSecret`). A path that is not
 * set stays absent; other fields are copied as they are.
 */
export function hideSecrets<T>(value: T, secrets: readonly string[]): T {
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const path of secrets) copy = hidePath(copy, path.split('.'));
  return copy as T;
}

function hidePath(object: Record<string, unknown>, [head, ...rest]: string[]): Record<string, unknown> {
  if (head === undefined || object[head] === undefined) return object;
  if (rest.length === 0) return { ...object, [head]: HIDDEN };
  const inner = object[head];
  if (inner === null || typeof inner !== 'object') return object;
  return { ...object, [head]: hidePath({ ...(inner as Record<string, unknown>) }, rest) };
}

/** `util.inspect.custom` without importing `node:util` (the symbol is registered globally). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes `target` show as `description()` in `util.inspect` (and so `console.log`) and in
 * `JSON.stringify`, for an object that keeps a secret in a public field of its own and cannot be
 * changed (an SDK client holding its password). The two hooks are non-enumerable; returns `target`.
 */
export function describeAs<T extends object>(target: T, description: () => unknown): T {
  Object.defineProperty(target, INSPECT, { value: () => description(), enumerable: false, configurable: true });
  Object.defineProperty(target, 'toJSON', { value: () => description(), enumerable: false, configurable: true });
  return target;
}
