export * from './common/index.js';
export * from './feishu/index.js';
export * from './dingtalk/index.js';
export * from './slack/index.js';
export * from './telegram/index.js';
export * from './discord/index.js';
export * from './wecom/index.js';
export * from './teams/index.js';
