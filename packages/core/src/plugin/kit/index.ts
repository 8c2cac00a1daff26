/** The plugin kit: what every channel plugin needs and should not write again. */
export { cut, oneLine, codePointLength } from './text.js';
export { STATUS_LABELS, statusLabel } from './status.js';
export {
  ChannelConfigError,
  parseChannelConfig,
  parseTimingOverrides,
  TIMING_OVERRIDES_SHAPE,
  TimingOverridesSchema,
  type ParseChannelConfigOptions,
  type TimingOverrides,
} from './config.js';
export { configFromEnv, withEnvNames, MissingEnvError, type EnvSource, type EnvVariable } from './env.js';
