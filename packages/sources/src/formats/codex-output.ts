import type { ToolResult } from '../run-builder.js';
import { isObject, num, str, summarize } from '../text.js';
import { codeModeOutput, isCodeModeOutput } from './codex-code-mode.js';

function fromText(text: string): ToolResult {
  const exit = /^(?:Exit code|Process exited with code):?\s*(-?\d+)/m.exec(text);
  const wall = /^Wall time:\s*([\d.]+)\s*seconds?/m.exec(text);
  const outputAt = text.search(/^Output:\n/m);
  const body = outputAt >= 0 ? text.slice(outputAt + 'Output:\n'.length) : text;
  const exitCode = exit ? Number(exit[1]) : undefined;
  const seconds = wall ? Number(wall[1]) : undefined;
  return {
    summary: summarize(body) ?? summarize(text),
    ...(exitCode !== undefined && exitCode !== 0 ? { isError: true } : {}),
    ...(seconds !== undefined && Number.isFinite(seconds) ? { durationMs: Math.round(seconds * 1000) } : {}),
  };
}

/**
 * A Codex tool output (`function_call_output.output` and kin) as a tool result. Understood shapes:
 * - JSON text `{"output": "...", "metadata": {"exit_code": 0, "duration_seconds": 0.4}}` (older
 *   shell calls): a non-zero exit code is an error; the duration is the call's own.
 * - Plain text, possibly with `Exit code: N` / `Process exited with code N`, `Wall time: X seconds`
 *   and an `Output:` section (newer exec calls): read the same way; the summary is the output's first line.
 * - An object `{content, success}` or an array of `{type: 'input_text', text}` items.
 * - A code-mode script's output (`Script completed\nWall time 0.4 seconds\nOutput:\n` then parts
 *   holding nested `{"chunk_id":…,"exit_code":…}` results): see {@link codeModeOutput}.
 */
export function codexOutput(output: unknown): ToolResult {
  if (typeof output === 'string') {
    const trimmed = output.trim();
    if (trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (isObject(parsed) && ('output' in parsed || 'metadata' in parsed)) {
          const metadata = isObject(parsed.metadata) ? parsed.metadata : {};
          const exitCode = num(metadata.exit_code);
          const seconds = num(metadata.duration_seconds);
          return {
            summary: summarize(str(parsed.output)),
            ...(exitCode !== undefined && exitCode !== 0 ? { isError: true } : {}),
            ...(seconds !== undefined ? { durationMs: Math.round(seconds * 1000) } : {}),
          };
        }
      } catch {
        // not JSON after all: plain text
      }
    }
    if (isCodeModeOutput([output])) return codeModeOutput([output]);
    return fromText(output);
  }
  if (Array.isArray(output)) {
    const texts = output.map((item) => (isObject(item) ? (str(item.text) ?? '') : ''));
    if (isCodeModeOutput(texts)) return codeModeOutput(texts);
    return fromText(texts.join('\n'));
  }
  if (isObject(output)) {
    const result = codexOutput(output.content ?? output.output ?? '');
    return output.success === false ? { ...result, isError: true } : result;
  }
  return {};
}
