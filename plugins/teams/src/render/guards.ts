import { TEAMS_LIMITS, type TeamsLimits } from './limits.js';
import { activityOf, type TeamsActivity, type TeamsMessage } from './payload.js';

/** UTF-16 bytes of an activity's JSON: how the size limit is measured (see `TeamsLimits.maxActivityBytes`). */
function activityBytes(activity: TeamsActivity): number {
  return JSON.stringify(activity).length * 2;
}

/** Why Teams would refuse `activity` (413 `MessageSizeTooBig`), empty when it fits. */
export function teamsActivityProblems(activity: TeamsActivity, limits: TeamsLimits = TEAMS_LIMITS): string[] {
  const problems: string[] = [];
  const bytes = activityBytes(activity);
  if (bytes > limits.maxActivityBytes) problems.push(`the activity is ${bytes} bytes (UTF-16), over ${limits.maxActivityBytes}`);
  if ((activity.text ?? '') === '' && (activity.attachments?.length ?? 0) === 0) problems.push('the activity has neither text nor attachments');
  return problems;
}

/** Why Teams would refuse the activity that carries `message`, empty when it fits. */
export function teamsMessageProblems(message: TeamsMessage, limits: TeamsLimits = TEAMS_LIMITS): string[] {
  return teamsActivityProblems(activityOf(message), limits);
}
