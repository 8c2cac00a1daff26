import type { RunBuilder } from '../run-builder.js';

/** Converts one format's records into calls on a {@link RunBuilder}. */
export interface Converter {
  /** One JSON record; `at` is its log-prefix time (epoch ms) when the format has prefixes. */
  record(value: unknown, at: number | undefined): void;
  /** End of input. */
  end(): void;
}

/** Makes a converter for one trace. */
export type ConverterFactory = (builder: RunBuilder) => Converter;
