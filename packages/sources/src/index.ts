/**
 * `@progresscard/sources`: converts real agent output (Claude Code transcripts and stream-json,
 * Codex rollouts and `codex exec --json`, Gemini CLI chats) into the progresscard event contract,
 * so recorded sessions can be replayed into live cards. Start with {@link readTrace}.
 */
export { readTrace, unknownFormatMessage } from './read-trace.js';
export { detectFormat, classifyRecord, DETECT_MAX_LINES } from './detect.js';
export { bundledTraces, bundledTracesDir, type BundledTrace } from './fixtures.js';
export { RECORDING_ENDS_REASON, UNFINISHED_TOOL_SUMMARY } from './run-builder.js';
export { SUBAGENT_SEPARATOR } from './formats/claude-shared.js';
export { MAX_SUMMARY_CHARS, MAX_TITLE_CHARS } from './text.js';
export {
  TRACE_FORMATS,
  isTraceFormat,
  type TraceFormat,
  type TraceItem,
  type TraceEventItem,
  type TraceErrorItem,
  type ReadTraceOptions,
  type TraceLocale,
  FORMAT_LABELS,
} from './types.js';
export { createTraceLineReader, type TraceLineReader, type TraceLineReaderOptions } from './line-reader.js';
export { createRecordMapper, eventsOf, type RecordMapper } from './record-mapper.js';
export { ToolEffects } from './event-effects.js';
export { PLAN_TOOL_NAMES, fileChangesFromCall, planFromCall, type FileChange } from './tool-effects.js';
