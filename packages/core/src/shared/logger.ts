/** Where the core reports what it dropped or retried. Messages never contain secrets or payloads. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Writes warnings and errors to stderr; debug is dropped. */
export const consoleLogger: Logger = {
  debug: () => {},
  warn: (message, fields) => (fields ? console.warn(`[progresscard] ${message}`, fields) : console.warn(`[progresscard] ${message}`)),
  error: (message, fields) => (fields ? console.error(`[progresscard] ${message}`, fields) : console.error(`[progresscard] ${message}`)),
};

/** Drops everything. */
export const silentLogger: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
