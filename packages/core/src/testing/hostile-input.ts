const circular: Record<string, unknown> = { a: 1 };
circular.self = circular;

/**
 * Events no card should choke on, in the order of a run: null and unknown types, wrong field types,
 * markup of every chat format (HTML tags, markdown, a table, an unclosed code block), lone UTF-16
 * surrogates, a `BigInt` and a circular object in tool arguments, and texts far over every
 * platform's lengths. Ends with `run.completed` whose answer starts `FINAL <answer> & done`.
 * For a plugin test: `push()` never throws, the platform refuses nothing, the card ends completed
 * showing that answer, and nothing it shows holds a lone surrogate ({@link LONE_SURROGATE}).
 */
export const HOSTILE_EVENTS: readonly unknown[] = [
  { type: 'run.started', title: 'x\ud83d <b>bold</b> & <script> \u0000 ' + 'T'.repeat(5000) },
  null,
  { type: 'nope' },
  { type: 'answer.delta', text: 42 },
  { type: 'tool.started', id: 't1', name: '<i>sh</i>\ud83d', args: { command: 'echo "<a href=x>" & ls `x', big: 10n } },
  { type: 'tool.started', id: 't2', name: 'x'.repeat(10_000), args: circular },
  { type: 'thinking.delta', text: '<tg-spoiler>**\ud83d' },
  { type: 'tool.finished', id: 't1', ok: true, summary: '</b></i></code><pre>' + '\ud83d'.repeat(3) },
  { type: 'tool.finished', id: 't2', ok: false, error: '&amp;&lt;' + 'e'.repeat(20_000) },
  { type: 'answer.delta', text: 'A '.repeat(3000) + '```\nunclosed <pre> & \ud83d' },
  { type: 'answer.delta', text: '\n| a | b |\n|---|---|\n| <x> | & |\n' + '😀'.repeat(2500) },
  { type: 'run.completed', answer: 'FINAL <answer> & done ' + '\ud83d' + 'z'.repeat(6000) },
];

/** Matches a lone UTF-16 surrogate: half an emoji, which platforms refuse or show as `�`. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string in `value` (nested objects and arrays), e.g. every text of a platform payload. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
