import { readFileSync } from 'node:fs';
import { bundledTraces } from '@progresscard/sources';

/** One recorded SDK message: a JSON object with a `type`. */
export type RecordedMessage = { readonly type: string } & Record<string, unknown>;

const PREFIX = /^\[\d{4}-\d{2}-\d{2}T[0-9:.]+Z?\](?: \[[A-Za-z]+\])? ?/;

/**
 * The JSON records of a bundled wrapper-log trace (`[time] [LEVEL] ` prefixes dropped, pretty-printed
 * records joined): the message sequence an SDK streamed in that recorded run.
 */
export function recordedMessages(traceName: string): RecordedMessage[] {
  const trace = bundledTraces().find((t) => t.name === traceName);
  if (!trace) throw new Error(`no bundled trace ${traceName}`);
  const records: RecordedMessage[] = [];
  let pending = '';
  for (const raw of readFileSync(trace.path, 'utf8').split('\n')) {
    const line = raw.replace(PREFIX, '');
    // A prefixed line opening an object is a new record (the wrapper also splits long records over
    // prefixed lines: those continue the pending one).
    if (line !== raw && line.startsWith('{')) pending = '';
    if (!pending && !line.trimStart().startsWith('{')) continue;
    // Joined without a newline: a record broken inside a string (a raw newline in the log) parses too.
    pending += line;
    try {
      records.push(JSON.parse(pending));
      pending = '';
    } catch {
      // a pretty-printed record goes on
    }
  }
  return records;
}

/** `items` as an async stream, as an SDK yields them. */
export async function* streamOf<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}
