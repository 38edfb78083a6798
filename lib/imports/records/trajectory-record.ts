import type { ReviewerDecision, TrajectoryFormat, TrajectoryRole } from "../../db/client";

// The normalised shape of an agent run (SWE-agent, OpenHands, Inspect) before it is written.

export type StepRecord = {
  thought: string | null;
  action: string | null;
  observation: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  durationMs: number | null;
  metadata: Record<string, unknown> | null;
};

export type TrajectoryHeader = {
  /** the task it worked on, by instance id; linked when that task is imported */
  instanceId: string | null;
  role: TrajectoryRole;
  format: TrajectoryFormat;
  model: string | null;
  exitStatus: string | null;
  submission: string | null;
  decision?: ReviewerDecision | null;
  confidence?: number | null;
  diagnosis?: Record<string, unknown> | null;
  /** the generator whose CandidatePatch this run produced or reviewed */
  generator?: string | null;
  /** or that CandidatePatch's id, when the file names it */
  candidatePatchId?: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  metadata: Record<string, unknown> | null;
};

/** One field of a step is capped so a single runaway observation cannot exhaust memory or a row. */
export const MAX_STEP_FIELD_CHARS = 2 * 1024 * 1024;

export function capText(value: unknown): { text: string | null; truncated: boolean } {
  if (value === null || value === undefined) return { text: null, truncated: false };
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text.length <= MAX_STEP_FIELD_CHARS) return { text: text.replace(/\u0000/g, ""), truncated: false };
  return {
    text: text.slice(0, MAX_STEP_FIELD_CHARS).replace(/\u0000/g, "") + "\n…[truncated on import]",
    truncated: true,
  };
}

/** Builds a step, capping each text field and noting which were cut. */
export function makeStep(fields: {
  thought?: unknown;
  action?: unknown;
  observation?: unknown;
  tokensIn?: number | null;
  tokensOut?: number | null;
  durationMs?: number | null;
  metadata?: Record<string, unknown> | null;
}): StepRecord {
  const thought = capText(fields.thought);
  const action = capText(fields.action);
  const observation = capText(fields.observation);
  const truncated = [
    thought.truncated && "thought",
    action.truncated && "action",
    observation.truncated && "observation",
  ].filter(Boolean);
  const metadata = { ...(fields.metadata ?? {}), ...(truncated.length ? { truncated } : {}) };
  return {
    thought: thought.text,
    action: action.text,
    observation: observation.text,
    tokensIn: finiteInt(fields.tokensIn),
    tokensOut: finiteInt(fields.tokensOut),
    durationMs: finiteInt(fields.durationMs),
    metadata: Object.keys(metadata).length ? metadata : null,
  };
}

export function finiteInt(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;
}

export function finiteNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Text from a chat message's content: a string, or a list of parts ({type:"text", text}). */
export function contentText(content: unknown): string | null {
  if (content === null || content === undefined) return null;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === "string"
          ? part
          : typeof part?.text === "string"
            ? part.text
            : typeof part?.reasoning === "string"
              ? part.reasoning
              : "",
      )
      .filter(Boolean)
      .join("\n");
  }
  return JSON.stringify(content);
}

/** Where a reader hands the steps it maps, one at a time (write/write-trajectory.ts stores them). */
export type StepSink = { add(step: StepRecord): Promise<void> };
