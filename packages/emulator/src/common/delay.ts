/** Resolves after `ms` real milliseconds (immediately for 0 or less). Used for injected latency. */
export function delay(ms: number): Promise<void> {
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
