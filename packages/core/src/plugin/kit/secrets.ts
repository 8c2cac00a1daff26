/**
 * Keeping credentials out of dumps. A plugin or store holds secrets (app secrets, callback tokens
 * and keys, signing secrets, passwords in URLs); a product may `console.log` it, `JSON.stringify`
 * it or log its config. Classes keep secrets in `#private` fields (neither `util.inspect` nor JSON
 * shows those); what is shown goes through {@link hideSecretFields}; third-party objects that hold a
 * secret in a public field (SDK clients) get a safe description through {@link describeAs}.
 */

/** What a hidden secret is shown as. */
export const HIDDEN_SECRET = '<hidden>';

/** `util.inspect.custom` without importing `node:util` (the symbol is registered globally). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A copy of `value` with each field named by `paths` (e.g. `['appSecret']`,
 * `['callbacks', 'encryptKey']`) replaced by {@link HIDDEN_SECRET} where it holds a value; other
 * fields are shared, `value` is not changed. Fields that are absent stay absent.
 */
export function hideSecretFields<T extends object>(value: T, paths: readonly (readonly string[])[]): T {
  let copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const path of paths) copy = hidePath(copy, path);
  return copy as T;
}

function hidePath(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !(head in value) || value[head] === undefined) return value;
  if (rest.length === 0) return { ...value, [head]: HIDDEN_SECRET };
  const inner = value[head];
  if (typeof inner !== 'object' || inner === null) return value;
  return { ...value, [head]: hidePath({ ...(inner as Record<string, unknown>) }, rest) };
}

/**
 * Makes `target` show as `description()` in `util.inspect` (and so `console.log`) and in
 * `JSON.stringify`, for objects that keep a secret in a field of their own and cannot be changed
 * (an SDK client holding its password). The two hooks are non-enumerable; `target` is returned.
 */
export function describeAs<T extends object>(target: T, description: () => unknown): T {
  Object.defineProperty(target, INSPECT, { value: () => description(), enumerable: false, configurable: true });
  Object.defineProperty(target, 'toJSON', { value: () => description(), enumerable: false, configurable: true });
  return target;
}
