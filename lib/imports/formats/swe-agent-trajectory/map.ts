import path from "node:path";
import type { Readable } from "node:stream";
import { readDocumentParts } from "../../read/json-document";
import {
  finiteInt,
  finiteNumber,
  makeStep,
  type StepRecord,
  type TrajectoryHeader,
} from "../../records/trajectory-record";
import { ChatStepper } from "../chat-steps";
import type { StepSink } from "../../records/trajectory-record";

// SWE-agent `.traj`: 0.x (string `state`, `agent: "primary"`, model_stats.total_cost) and
// 1.x (dict `state`, execution_time, tool calls, replay_config). Steps come from
// `trajectory`; a file with only `history` (function-calling demonstrations, newer runs)
// gets its steps from the chat messages (chat-steps.ts). mini-swe-agent's `.traj.json`
// (`messages`, `info.submission`, `info.exit_status`, `instance_id`) is read the same way.

type Json = Record<string, unknown>;

export function parseState(state: unknown): Json | null {
  if (state && typeof state === "object") return state as Json;
  if (typeof state !== "string" || !state.trim()) return null;
  try {
    const parsed = JSON.parse(state);
    return parsed && typeof parsed === "object" ? (parsed as Json) : { raw: state };
  } catch {
    return { raw: state };
  }
}

/** One `trajectory[i]` entry as a step. */
export function sweAgentStep(raw: unknown): StepRecord {
  const step = (raw ?? {}) as Json;
  const metadata: Json = {};
  const state = parseState(step.state);
  if (state) metadata.state = state;
  if (typeof step.response === "string" && step.response !== step.thought) metadata.response = step.response;
  if (step.extra_info && typeof step.extra_info === "object") metadata.extraInfo = step.extra_info;
  const seconds = finiteNumber(step.execution_time);
  return makeStep({
    thought: step.thought,
    action: step.action,
    observation: step.observation,
    durationMs: seconds === null ? null : seconds * 1000,
    metadata,
  });
}

/** The instance a trajectory worked on: from 1.x's replay_config, else the file name (`<instance_id>.traj`). */
export function sweAgentInstanceId(fileName: string, replayConfig: unknown, named?: unknown): string | null {
  if (typeof named === "string" && named) return named;
  const config = typeof replayConfig === "string" ? safeJson(replayConfig) : (replayConfig as Json | null);
  const fromConfig =
    (config?.problem_statement as Json | undefined)?.id ?? (config?.instance as Json | undefined)?.instance_id;
  if (typeof fromConfig === "string" && fromConfig) return fromConfig;
  const base = path
    .basename(fileName)
    .replace(/\.traj(\.json)?$/i, "")
    .replace(/\.json$/i, "");
  return base || null;
}

function safeJson(text: string): Json | null {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}

type HeaderParts = {
  info: unknown;
  environment: unknown;
  replayConfig: unknown;
  instanceId?: unknown;
  trajectoryFormat?: unknown;
};

/** mini-swe-agent keeps its model under info.config.model.model_name */
function modelName(info: Json, replayConfig: Json | null): unknown {
  const mini = ((info.config as Json | undefined)?.model as Json | undefined)?.model_name;
  return mini ?? ((replayConfig?.agent as Json | undefined)?.model as Json | undefined)?.name;
}

export function sweAgentHeader(parts: HeaderParts, fileName: string): TrajectoryHeader {
  const info = (parts.info ?? {}) as Json;
  const stats = (info.model_stats ?? {}) as Json;
  const config =
    typeof parts.replayConfig === "string" ? safeJson(parts.replayConfig) : (parts.replayConfig as Json | null);
  const model = modelName(info, config);
  const mini = typeof parts.trajectoryFormat === "string" || info.mini_version !== undefined;
  const version =
    parts.environment === "swe_main" ? "0.x" : parts.replayConfig || parts.environment === "main" ? "1.x" : null;
  const metadata: Json = mini
    ? {
        agent: "mini-swe-agent",
        miniVersion: info.mini_version ?? null,
        trajectoryFormat: parts.trajectoryFormat ?? null,
      }
    : { environment: parts.environment ?? null, sweAgentVersion: info.swe_agent_version ?? version };
  if (finiteInt(stats.api_calls) !== null) metadata.apiCalls = stats.api_calls;
  for (const key of ["edited_files30", "edited_files50", "edited_files70", "review", "summarizer"])
    if (info[key] !== undefined) metadata[key] = info[key];
  return {
    instanceId: sweAgentInstanceId(fileName, parts.replayConfig, parts.instanceId),
    role: "SOLVER",
    format: "SWE_AGENT",
    model: typeof model === "string" ? model : null,
    exitStatus: typeof info.exit_status === "string" ? info.exit_status : null,
    submission: typeof info.submission === "string" && info.submission.trim() ? info.submission : null,
    tokensIn: finiteInt(stats.tokens_sent),
    tokensOut: finiteInt(stats.tokens_received),
    costUsd: finiteNumber(stats.instance_cost) ?? finiteNumber(stats.total_cost),
    metadata,
  };
}

export type StepsFrom = "trajectory" | "history";

/** Which list a .traj's steps come from: `trajectory` when it has one, else the chat (`history` / `messages`). */
export const stepsFromKeys = (topKeys: Set<string>): StepsFrom =>
  topKeys.has("trajectory") ? "trajectory" : "history";

/**
 * Streams a .traj file's steps into the sink and returns its header. Which list holds the
 * steps is decided before (stepsFromKeys on the file's shape), so no step is held back
 * waiting for the end of the file.
 */
export async function produceSweAgentTrajectory(
  source: Readable,
  fileName: string,
  sink: StepSink,
  stepsFrom: StepsFrom,
): Promise<TrajectoryHeader> {
  const parts: HeaderParts = { info: null, environment: null, replayConfig: null };
  const chat = new ChatStepper("history");
  for await (const part of readDocumentParts(source, new Set(["trajectory", "history", "messages"]))) {
    if (part.kind === "element" && part.key === "trajectory") {
      if (stepsFrom === "trajectory") await sink.add(sweAgentStep(part.value));
    } else if (part.kind === "element" && (part.key === "history" || part.key === "messages")) {
      if (stepsFrom === "history") for (const step of chat.add(part.value)) await sink.add(step);
    } else if (part.kind === "member") {
      if (part.key === "info") parts.info = part.value;
      else if (part.key === "environment") parts.environment = part.value;
      else if (part.key === "replay_config") parts.replayConfig = part.value;
      else if (part.key === "instance_id") parts.instanceId = part.value;
      else if (part.key === "trajectory_format") parts.trajectoryFormat = part.value;
    }
  }
  for (const step of chat.finish()) await sink.add(step);
  return sweAgentHeader(parts, fileName);
}
