export { splitBlocks, openFenceAtEnd, fenceMarker, type MarkdownBlock } from './blocks.js';
export { escapeCardMarkdown } from './escape.js';
export { limitTables, countTables, type LimitedTables } from './tables.js';
export { truncateMarkdown, type Truncated } from './truncate.js';
