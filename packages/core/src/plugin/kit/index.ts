/** The plugin kit: what every channel plugin needs and should not write again. */
export { cut, oneLine, codePointLength, wellFormed, tailCodePoints } from '../../card/format/text.js';
export { STATUS_LABELS, statusLabel, DEFAULT_TITLES, TOOL_CALLS_HEADINGS, CARD_WORDS, type CardWords } from './status.js';
export {
  ChannelConfigError,
  parseChannelConfig,
  parseTimingOverrides,
  TIMING_OVERRIDES_SHAPE,
  HttpUrlSchema,
  TimingOverridesSchema,
  type ParseChannelConfigOptions,
  type TimingOverrides,
} from './config.js';
export { noticeText } from './notice.js';
export { thinkingHeading, reasoningOpen } from './reasoning.js';
export { configFromEnv, withEnvNames, MissingEnvError, type EnvSource, type EnvVariable } from './env.js';
export {
  resolveFeatureSwitches,
  switchEnvName,
  DEFAULT_FEATURE_SWITCHES,
  FEATURE_SWITCHES_SHAPE,
  SWITCH_ENV_VARIABLES,
  type SwitchEnvVariable,
  type ResolveSwitchesOptions,
} from './switches.js';
export {
  PLAN_MARKS,
  PLAN_HEADINGS,
  MAX_PLAN_ITEM_CHARS,
  MAX_PATH_CHARS,
  planHeading,
  planLines,
  changedFilesHeading,
  changedFileText,
  changedFilesLines,
  shownPaths,
  noProgressNote,
} from './sections.js';
export {
  imagePlaceholderText,
  imageRefPlaceholder,
  imageIdOfPlaceholder,
  readImageBytes,
  DEFAULT_IMAGE_READ_TIMEOUT_MS,
  ImageUploads,
  type ImageFallbackReason,
  type ImageReadLimits,
  readAttachmentFile,
  type AttachmentReadLimits,
} from './images.js';
export { ALLOWED_LINK_SCHEMES, breakLinkSyntax, isAllowedLinkDestination, neutraliseLinks } from './links.js';
export {
  CallbackServer,
  crossSiteProblem,
  type CrossSiteGuard,
  readCallbackBody,
  callbackHeader,
  MAX_CALLBACK_BODY_BYTES,
  type CallbackServerOptions,
  type CallbackRequestHandler,
} from './callback-server.js';
export { AnnouncedLimits, type LimitAnnouncement } from './announced-limits.js';
export { countingPlatformCalls, platformCallMade } from './platform-calls.js';
export { SentMessages, LATE_SEND_ANSWER_MS, awaitLateAnswer, type LateAnswer } from './sent-messages.js';
export {
  displayWidth,
  splitTableRow,
  markdownPieces,
  alignedTableLines,
  tablesAsAligned,
  type MarkdownTable,
  type MarkdownPiece,
  type TableAlign,
  type AlignedTableLimits,
} from './tables.js';
export { boundAnswer, answerCharsNotHeld, ANSWER_BOUND_MARGIN, type AnswerBoundOptions } from './bounded-answer.js';
