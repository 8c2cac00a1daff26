/** The content of a wrapper-log line after its `[ISO time] [LEVEL] ` prefix (test-side copy, on purpose independent). */
export function splitPrefixForTests(line: string): string {
  const match = /^\[\d{4}-\d\d-\d\dT[^\]]+\] \[[A-Z]+\] /.exec(line);
  return match ? line.slice(match[0].length) : line;
}
