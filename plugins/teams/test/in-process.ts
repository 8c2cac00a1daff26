import { inProcessChannel, type InProcessChannel } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT as BOT, createTeamsEmulator, type TeamsEmulatorCore, type TeamsEmulatorOptions } from '@progresscard/emulator';
import { vi } from 'vitest';
import { teams, type TeamsConfigInput } from '../src/index.js';

const API_ROOT = 'http://teams.test';

/** A Teams emulator answering in process on fake time, the plugin pointed at it, and a composition of the core. */
export type InProcess = InProcessChannel<TeamsEmulatorCore>;

/**
 * The kit's {@link inProcessChannel} over the Teams emulator and plugin: the connector and the token
 * endpoint both at `http://teams.test`, every limit the documented one on the faked clock. Default: the
 * group chat (post-and-update); `conversationId: BOT.personalChat` streams.
 */
export function inProcess(options: { plugin?: Partial<TeamsConfigInput>; emulator?: TeamsEmulatorOptions } = {}): InProcess {
  return inProcessChannel(vi, {
    apiRoot: API_ROOT,
    emulator: () => createTeamsEmulator({ clock: () => Date.now(), ...options.emulator }),
    plugin: () =>
      teams(
        { appId: BOT.appId, appPassword: BOT.appPassword, tenantId: BOT.tenantId, loginUrl: API_ROOT, serviceUrl: `${API_ROOT}/`, conversationId: BOT.groupChat, locale: 'en', ...options.plugin },
        { env: {} },
      ),
  });
}
