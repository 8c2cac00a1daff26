import { jsonlFramer } from '../framing/jsonl.js';
import { jsonArrayFramer } from '../framing/json-array.js';
import { logFramer } from '../framing/log.js';
import type { Framer } from '../framing/framer.js';
import type { TraceFormat } from '../types.js';
import { claudeStreamJson } from './claude-stream-json.js';
import { claudeTranscript } from './claude-transcript.js';
import { codexExec } from './codex-exec.js';
import { codexRollout } from './codex-rollout.js';
import type { ConverterFactory } from './converter.js';
import { copilotEvents } from './copilot-events.js';
import { cursorStreamJson } from './cursor-stream-json.js';
import { geminiChat } from './gemini-chat.js';
import { geminiChatJson } from './gemini-chat-json.js';
import { opencodeJson } from './opencode-json.js';
import { openhandsTrajectory } from './openhands-trajectory.js';

/** How one format is read. */
export interface FormatReader {
  /** Cuts the trace's lines into records. */
  readonly framer: () => Framer;
  readonly converter: ConverterFactory;
  /**
   * True when the format's events carry no times of their own: the converter is given the log
   * prefix time, the agent's own log time, or (with neither) the time the line was read.
   */
  readonly eventsWithoutTimes: boolean;
}

/** How each format is cut into records and converted. */
export const FORMATS: Record<TraceFormat, FormatReader> = {
  'claude-transcript': { framer: jsonlFramer, converter: claudeTranscript, eventsWithoutTimes: false },
  'claude-stream-json': { framer: logFramer, converter: claudeStreamJson, eventsWithoutTimes: true },
  'codex-rollout': { framer: jsonlFramer, converter: codexRollout, eventsWithoutTimes: false },
  'codex-exec': { framer: logFramer, converter: codexExec, eventsWithoutTimes: true },
  'gemini-chat': { framer: jsonlFramer, converter: geminiChat, eventsWithoutTimes: false },
  'gemini-chat-json': { framer: logFramer, converter: geminiChatJson, eventsWithoutTimes: false },
  'cursor-stream-json': { framer: logFramer, converter: cursorStreamJson, eventsWithoutTimes: true },
  'copilot-events': { framer: jsonlFramer, converter: copilotEvents, eventsWithoutTimes: false },
  'opencode-json': { framer: logFramer, converter: opencodeJson, eventsWithoutTimes: true },
  'openhands-trajectory': { framer: jsonArrayFramer, converter: openhandsTrajectory, eventsWithoutTimes: false },
};
