/**
 * `@progresscard/cli`: the `progresscard` command (demo, replay, emulator) and the pieces it is
 * made of, for scripts and tests.
 */
export { main } from './main.js';
export { buildProgram, DEMO_TRACE, TARGET_SECONDS, DEFAULT_MAX_GAP_MS, LINGER_MS } from './program.js';
export { EXIT, CliUsageError } from './errors.js';
export type { CliIO } from './io.js';
export { parseSpeed, parsePort, parseLang, parseMaxGap, parseChannel, parsePositiveInteger } from './options.js';
export { CHANNELS, CHANNEL_IDS, channelDescriptor, channelIds, channelList, registerChannel, clearRegisteredChannels, type ChannelId, type BuiltInChannelId } from './channels/index.js';
export { defineCliChannel, externalChannelDescriptor, type CliChannel, type FakePlatform } from './channels/external.js';
export { loadPluginModules, pluginModuleFlags, CONFIG_FILE_NAMES, type ProgressCardConfig, type PluginModuleOptions } from './channels/plugin-modules.js';
export { CallRecording, recordedPlugin, inMemoryPlugin, type RecordedMessage } from './channels/recording.js';
export { feishuChannel, EMULATED_FEISHU_CHAT_ID } from './channels/feishu.js';
export { dingtalkChannel, EMULATED_DINGTALK } from './channels/dingtalk.js';
export { slackChannel } from './channels/slack.js';
export type * from './channels/descriptor.js';
export { runSession, autoSpeed, MAX_AUTO_SPEED, type SessionOptions } from './commands/session.js';
export { runEmulatorCommand, DEFAULT_EMULATOR_PORT, type EmulatorCommandOptions } from './commands/emulator.js';
export { ReplayClock, replayTickMs, CARD_TICK_MS, MIN_WALL_TICK_MS } from './replay/clock.js';
export { replayTrace, type ReplayOptions, type ReplayProgress, type ReplayCardProgress, type ReplayResult, type CardOutcome } from './replay/engine.js';
export { loadTrace, resolveTrace, capGaps, FORMAT_CHOICES, type LoadedTrace, type TimedEvent, type FormatChoice } from './replay/trace.js';
export { EVENTS_FORMAT, readEventsFile, looksLikeAgentEvent } from './replay/events-format.js';
export { summarize, formatSummary, type ReplaySummary, type ChannelSummary } from './replay/summary.js';
export type { FinalCardJson } from './replay/payloads.js';
export { REAL_ENV_VARS, missingRealEnv, realPlugins } from './channels/real.js';
export { startEmulators, emulatedPlugins, type Emulators, type EmulatedChannel, type EmulatorPorts } from './channels/emulated.js';
export { startPreviewServer, DEFAULT_PREVIEW_PORT, type PreviewServer, type RunInfo, type PreviewState } from './preview/server.js';
export { emulatorPreviewSource, previewCalls } from './preview/sources.js';
export type { PreviewSource, PanelSnapshot, PreviewCall, PreviewCard } from './preview/model.js';
export { renderFeishuCard } from './preview/render-feishu.js';
export { renderDingTalkCard } from './preview/render-dingtalk.js';
export { renderSlackMessage } from './preview/render-slack.js';
export { renderMarkdown, escapeHtml } from './preview/markdown.js';
export { runDoctor, doctorReport, type DoctorOptions } from './commands/doctor.js';
export { DOCTOR_LAYERS, formatDoctorReport, type DoctorReport, type DoctorChannelReport, type DoctorCheck, type DoctorLayer, type DoctorStatus, type DoctorWarning } from './doctor/report.js';
export { runSmoke, type SmokeOptions, type SmokeResult } from './commands/smoke.js';
export { SMOKE_SCENARIOS, type SmokeScenario } from './smoke/scenarios.js';
export { finalView as smokeFinalView, runningView as smokeRunningView } from './smoke/views.js';
export { runSmokeScenario, type SmokeOutcome, type SmokeTarget } from './smoke/run.js';
export { findChromium, launchChromium, SYSTEM_CHROMIUM, type ChromiumChoice, type ChromiumLookup } from './smoke/chromium.js';
export { runPlan, type PlanOptions } from './commands/plan.js';
export { runNewChannel, writeChannelScaffold, scaffoldNames, SCAFFOLD_TOOL_VERSIONS, type NewChannelOptions } from './commands/new-channel.js';
export { budgetPlan, pacedCallsPerSecond, sustainedCallsPerSecond, formatPlan, type PlanInput, type PlanResult, type LoadLevel } from './plan/budget-plan.js';
