/** `String(value)`, or a placeholder when even that throws (a hostile `toString`, a revoked proxy). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '(unprintable error)';
  }
}
