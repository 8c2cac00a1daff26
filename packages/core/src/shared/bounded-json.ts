/** Objects nested deeper than this show as `"…"` (a 5 000-deep argument must not exhaust the stack). */
const MAX_DEPTH = 64;

/** Reads `object[key]`; a getter that throws reads as `"[unreadable]"`. */
function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return '[unreadable]';
  }
}

/** JSON text of a value that is not an object (functions and symbols as `null`); undefined for objects. */
function scalarJson(item: unknown): string | undefined {
  switch (typeof item) {
    case 'string':
      return JSON.stringify(item);
    case 'number':
      return Number.isFinite(item) ? String(item) : 'null';
    case 'boolean':
      return String(item);
    case 'bigint':
      return item.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'null';
    default:
      return item === null ? 'null' : undefined;
  }
}

/**
 * JSON text of any value, never throwing, at most `maxChars` characters: a cycle shows as
 * `"[circular]"`, a BigInt as its digits, a getter or `toJSON` that throws as `"[unreadable]"`,
 * nesting deeper than 64 levels as `"…"`, functions and symbols are left out like `JSON.stringify`
 * does. Walks only as far as the text can still grow, so a huge argument costs at most `maxChars`.
 */
export function boundedJson(value: unknown, maxChars: number): string {
  let out = '';
  const path = new Set<object>();
  const full = () => out.length >= maxChars;
  const write = (text: string) => {
    out += text;
  };
  const visit = (input: unknown, depth: number): void => {
    if (full()) return;
    let item = input;
    if (item !== null && typeof item === 'object') {
      try {
        // Reading `toJSON` may throw too (a getter, a Proxy whose every trap throws).
        const toJSON: unknown = (item as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') item = toJSON.call(item);
      } catch {
        item = '[unreadable]';
      }
    }
    // A long string is quoted only as far as the text can still grow (a 10 MB value costs `maxChars`).
    if (typeof item === 'string' && item.length > maxChars - out.length) item = item.slice(0, maxChars - out.length);
    const scalar = scalarJson(item);
    if (scalar !== undefined) {
      write(scalar);
      return;
    }
    const object = item as object;
    if (path.has(object) || depth >= MAX_DEPTH) {
      write(path.has(object) ? '"[circular]"' : '"…"');
      return;
    }
    path.add(object);
    try {
      if (Array.isArray(object)) {
        write('[');
        for (let index = 0; index < object.length && !full(); index++) {
          if (index > 0) write(',');
          visit(read(object, String(index)), depth + 1);
        }
        write(']');
        return;
      }
      write('{');
      let first = true;
      let keys: string[];
      try {
        keys = Object.keys(object);
      } catch {
        keys = [];
      }
      for (const key of keys) {
        if (full()) break;
        const entry = read(object, key);
        if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
        write(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        visit(entry, depth + 1);
      }
      write('}');
    } finally {
      path.delete(object);
    }
  };
  visit(value, 0);
  return out.slice(0, maxChars);
}

/** A copy of `args` whose values can be read without throwing: each value read once, a throwing getter as `"[unreadable]"`. */
export function readableArgs(args: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  let keys: string[];
  try {
    keys = Object.keys(args);
  } catch {
    return copy;
  }
  for (const key of keys) copy[key] = read(args, key);
  return copy;
}
