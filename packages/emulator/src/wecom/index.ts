export { WeComEmulator, startWeComEmulator, DEFAULT_WECOM_BOT, type WeComEmulatorOptions, type WeComCallbackRequest, type WeComDeliver, type WeComChange, type UserMessageResult } from './emulator.js';
export { DEFAULT_WECOM_LIMITS, WECOM_CODES, type WeComLimits } from './limits.js';
export type { WeComMessageSnapshot, WeComMessageCall } from './messages.js';
export { WeComCipher } from './crypto.js';
