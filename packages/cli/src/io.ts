/** Where a command reads and writes: the real process by default, buffers in tests. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C: a replay stops and cancels its cards, servers shut down. */
  readonly signal: AbortSignal;
  /** Where relative paths, `--plugin` packages and `progresscard.config.mjs` are looked up (default `process.cwd()`). */
  readonly cwd?: string;
}

/** The process's streams and env, with `signal` aborted on the first SIGINT / SIGTERM. */
export function processIO(signal: AbortSignal): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, signal };
}

/** Resolves when `signal` aborts, or after `ms` (Infinity = only on abort). */
export function waitFor(signal: AbortSignal, ms: number): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    signal.addEventListener('abort', done, { once: true });
    function done() {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
