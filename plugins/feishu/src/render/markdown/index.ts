export { splitBlocks, openFenceAtEnd, fenceMarker } from './blocks.js';
export { escapeCardMarkdown } from './escape.js';
export { limitTables, countTables } from './tables.js';
export { truncateMarkdown, type Truncated } from './truncate.js';
