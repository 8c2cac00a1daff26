import { jsonlFramer } from '../framing/jsonl.js';
import { logFramer } from '../framing/log.js';
import type { Framer } from '../framing/framer.js';
import type { TraceFormat } from '../types.js';
import { claudeStreamJson } from './claude-stream-json.js';
import { claudeTranscript } from './claude-transcript.js';
import { codexExec } from './codex-exec.js';
import { codexRollout } from './codex-rollout.js';
import type { ConverterFactory } from './converter.js';
import { geminiChat } from './gemini-chat.js';

/** How each format is cut into records and converted. */
export const FORMATS: Record<TraceFormat, { readonly framer: () => Framer; readonly converter: ConverterFactory }> = {
  'claude-transcript': { framer: jsonlFramer, converter: claudeTranscript },
  'claude-stream-json': { framer: logFramer, converter: claudeStreamJson },
  'codex-rollout': { framer: jsonlFramer, converter: codexRollout },
  'codex-exec': { framer: logFramer, converter: codexExec },
  'gemini-chat': { framer: jsonlFramer, converter: geminiChat },
};
