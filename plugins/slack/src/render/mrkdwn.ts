import { codePointLength, cut } from '@progresscard/core';

/**
 * Agent markdown as Slack mrkdwn (https://api.slack.com/reference/surfaces/formatting):
 * `&`, `<`, `>` escaped everywhere (so no agent text becomes a mention or a link markup), `**bold**`
 * and `# headings` as `*bold*`; code spans and fences are kept as they are (Slack has both).
 */
export function toMrkdwn(markdown: string): string {
  const escaped = markdown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  let inFence = false;
  return escaped
    .split('\n')
    .map((line) => {
      if (/^\s{0,3}```/.test(line)) {
        inFence = !inFence;
        return line;
      }
      if (inFence) return line;
      return line.replace(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/, '*$1*').replace(/\*\*(.+?)\*\*/g, '*$1*');
    })
    .join('\n');
}

/**
 * Splits mrkdwn into pieces of at most `max` code points, at line ends where possible. A code fence
 * cut open is closed at the end of one piece and reopened at the start of the next, so every piece
 * renders on its own.
 */
export function splitSections(text: string, max: number): string[] {
  const pieces: string[] = [];
  const fence = '```';
  let current = '';
  let open = false;
  const flush = () => {
    if (current === '') return;
    pieces.push(open ? `${current}\n${fence}` : current);
    current = open ? fence : '';
  };
  // Room for a closing fence ("\n```") and a reopened one ("```\n").
  const room = max - 2 * (fence.length + 1);
  for (const rawLine of text.split('\n')) {
    let line = rawLine;
    while (codePointLength(line) > room) {
      const head = cut(line, room, '');
      if (current !== '') flush();
      current = current === '' ? head : `${current}\n${head}`;
      flush();
      line = line.slice(head.length);
    }
    const next = current === '' ? line : `${current}\n${line}`;
    if (codePointLength(next) > room) {
      flush();
      current = current === '' ? line : `${current}\n${line}`;
    } else current = next;
    if (/^\s{0,3}```/.test(line)) open = !open;
  }
  if (current !== '' && current !== fence) pieces.push(open ? `${current}\n${fence}` : current);
  return pieces.filter((p) => p.trim() !== '' && p.trim() !== fence);
}
