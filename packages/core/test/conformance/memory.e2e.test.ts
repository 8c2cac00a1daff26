import { describeChannelConformance, memoryChannelDriver } from '../../src/testing/conformance/index.js';

// The core's own run of the conformance suite every channel plugin runs: over the in-memory channel.
describeChannelConformance(memoryChannelDriver);
