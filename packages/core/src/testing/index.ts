/**
 * `@progresscard/core/testing`: helpers for tests of the core, of plugins and of products built on
 * them. Play a script on fake time, look at the card after a script, keep what the core logged,
 * read field fault cases. Nothing here starts a server; only {@link wallTimeScript} and
 * {@link sleepUntil} (for tests over real loopback HTTP) wait on wall time.
 */
export { fakeTime, type FakeTime, type FakeTimers } from './fake-time.js';
export { playEvents, type ScriptedEvent, type EventSink, type PlayEventsOptions } from './play-events.js';
export { viewAfterEvents, DEFAULT_SCRIPT_START, type ViewAfterEventsOptions } from './view-after-events.js';
export { recordingLogger, type RecordingLogger, type RecordingLoggerOptions, type LogEntry } from './recording-logger.js';
export { loadFaultCases, parseFaultCases, faultCase, type FaultCase, type FaultCases } from './fault-cases.js';
export { maxCallsInWindow } from './call-windows.js';
export { MARKDOWN_TABLE_RUN } from './markdown-table-run.js';
export { HOSTILE_EVENTS, LONE_SURROGATE, stringsIn } from './hostile-input.js';
export { inProcessChannel, type InProcessChannel, type InProcessChannelOptions, type InProcessApp, type InProcessTimers } from './in-process.js';
export { temporaryFolders, type TemporaryFolders } from './temporary-folders.js';
export { lateEditOverFinal, type AppliedCall, type LateEditOutcome } from './late-edits.js';
export { runShapedScript } from './run-script.js';
export { wallTimeScript, sleepUntil, type WallTimeScript } from './wall-time-script.js';
