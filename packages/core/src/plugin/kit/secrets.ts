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
