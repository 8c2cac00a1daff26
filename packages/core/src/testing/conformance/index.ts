export { describeChannelConformance } from './suite.js';
export { memoryChannelDriver } from './memory-driver.js';
export { CONFORMANCE_CASES, oversizedAnswer, type ConformanceCase } from './cases.js';
export type {
  ConformanceDriver,
  ConformanceSetup,
  ConformancePlatform,
  ConformanceMessage,
  ConformanceCall,
  ConformanceFault,
  ConformanceClick,
  ConformanceStreamSetup,
  ConformanceStreamPlatform,
} from './driver.js';
