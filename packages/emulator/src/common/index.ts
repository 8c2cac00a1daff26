export * from './clock.js';
export * from './rate-limiter.js';
export * from './faults.js';
export * from './history.js';
export * from './changes.js';
export * from './server.js';
export * from './ids.js';
export * from './delay.js';
