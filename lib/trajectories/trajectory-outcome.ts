import { raw, type SqlFragment } from "../db/sql";

// A trajectory's outcome, one word for filters and clusters: the candidate's ground truth when a
// run decided it, else how the agent's run ended. Failed = UNRESOLVED or ERRORED.

export const OUTCOMES = ["RESOLVED", "UNRESOLVED", "ERRORED", "UNKNOWN"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const FAILED_OUTCOMES: readonly Outcome[] = ["UNRESOLVED", "ERRORED"];

/**
 * The outcome over `tr` (trajectories) and `cp` (its candidate patch, left-joined): a run's
 * resolved decides; without one, an exit status other than "submitted…" (SWE-agent's exit_cost,
 * exit_context, exit_format, OpenHands' errors) is ERRORED.
 */
export const OUTCOME_SQL: SqlFragment =
  raw(`(CASE WHEN cp.resolved THEN 'RESOLVED' WHEN NOT cp.resolved THEN 'UNRESOLVED'
  WHEN tr.exit_status IS NOT NULL AND tr.exit_status NOT ILIKE 'submitted%' THEN 'ERRORED' ELSE 'UNKNOWN' END)`);
