export * from './events.js';
export * from './view.js';
export * from './plugin.js';
