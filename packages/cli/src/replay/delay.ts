/**
 * Waits `ms` on the global timers (so tests can run a replay on fake time). With `signal`, rejects
 * with the signal's reason as soon as it aborts; `ref: false` lets the process exit meanwhile.
 */
export function delay(ms: number, options: { readonly signal?: AbortSignal; readonly ref?: boolean } = {}): Promise<void> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, Math.max(0, ms));
    if (options.ref === false) timer.unref?.();
    signal?.addEventListener('abort', aborted, { once: true });
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
  });
}
