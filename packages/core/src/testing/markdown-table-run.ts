import type { ScriptedEvent } from './play-events.js';

const ANSWER = 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.';

/**
 * A run whose answer holds a markdown table between two lines of prose: field fault case F28, an
 * agent's table that a channel showed as raw pipes (reported in
 * https://github.com/NousResearch/hermes-agent/issues/18918). For a renderer's table test:
 * `viewAfterEvents([...MARKDOWN_TABLE_RUN.events], { locale: 'en' })` is the completed card.
 */
export const MARKDOWN_TABLE_RUN: {
  /** The answer's markdown: prose, a table of three columns and two rows, prose. */
  readonly answer: string;
  /** `run.started` (in English), the answer as one `answer.delta`, `run.completed`. */
  readonly events: readonly ScriptedEvent[];
  /**
   * The table as the plugin kit's aligned tables draw it for a monospace block (without its fence):
   * each column padded to its widest cell, two spaces apart, a dash rule under the header.
   */
  readonly aligned: string;
} = {
  answer: ANSWER,
  events: [{ type: 'run.started', title: 'Compare the test runners', locale: 'en' }, { type: 'answer.delta', text: ANSWER }, { type: 'run.completed' }],
  aligned: ['Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers'].join('\n'),
};
