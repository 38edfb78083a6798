import path from "node:path";
import type { Readable } from "node:stream";
import { readDocumentParts } from "../read/json-document";
import { contentText, finiteInt, finiteNumber, makeStep, type StepRecord, type TrajectoryHeader } from "./trajectory-record";
import type { StepSink } from "../write/write-trajectory";

// SWE-agent `.traj`: 0.x (string `state`, `agent: "primary"`, model_stats.total_cost) and
// 1.x (dict `state`, execution_time, tool calls, replay_config). Steps come from
// `trajectory`; a file with only `history` gets its steps from assistant → tool/user pairs.

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

function toolCallsText(calls: unknown): string | null {
  if (!Array.isArray(calls) || !calls.length) return null;
  return calls
    .map((call) => {
      const fn = (call as Json)?.function as Json | undefined;
      return fn ? `${fn.name}(${typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {})})` : JSON.stringify(call);
    })
    .join("\n");
}

/**
 * Steps derived from `history` when a file has no `trajectory`: each assistant message is
 * an action; the tool/user messages after it, up to the next assistant message, are its
 * observation. Demonstrations (is_demo) and the system prompt are not steps.
 */
export class HistoryStepper {
  private current: { thought: string | null; action: string | null; observation: string[] } | null = null;
  readonly steps: StepRecord[] = [];

  add(raw: unknown) {
    const item = (raw ?? {}) as Json;
    if (item.is_demo || item.role === "system" || item.message_type === "demonstration") return;
    if (item.role === "assistant") {
      this.close();
      const action = typeof item.action === "string" ? item.action : toolCallsText(item.tool_calls);
      const thought = typeof item.thought === "string" ? item.thought : contentText(item.content);
      this.current = { thought, action: action ?? contentText(item.content), observation: [] };
    } else if (this.current) {
      const text = contentText(item.content);
      if (text) this.current.observation.push(text);
    }
  }

  close() {
    if (!this.current) return;
    const { thought, action, observation } = this.current;
    this.steps.push(makeStep({ thought, action, observation: observation.length ? observation.join("\n") : null, metadata: { derivedFrom: "history" } }));
    this.current = null;
  }
}

/** The instance a trajectory worked on: from 1.x's replay_config, else the file name (`<instance_id>.traj`). */
export function sweAgentInstanceId(fileName: string, replayConfig: unknown): string | null {
  const config = typeof replayConfig === "string" ? safeJson(replayConfig) : (replayConfig as Json | null);
  const fromConfig = (config?.problem_statement as Json | undefined)?.id ?? (config?.instance as Json | undefined)?.instance_id;
  if (typeof fromConfig === "string" && fromConfig) return fromConfig;
  const base = path.basename(fileName).replace(/\.traj(\.json)?$/i, "").replace(/\.json$/i, "");
  return base || null;
}

function safeJson(text: string): Json | null {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return null;
  }
}

export function sweAgentHeader(parts: { info: unknown; environment: unknown; replayConfig: unknown }, fileName: string): TrajectoryHeader {
  const info = (parts.info ?? {}) as Json;
  const stats = (info.model_stats ?? {}) as Json;
  const config = typeof parts.replayConfig === "string" ? safeJson(parts.replayConfig) : (parts.replayConfig as Json | null);
  const model = ((config?.agent as Json | undefined)?.model as Json | undefined)?.name;
  const version = parts.environment === "swe_main" ? "0.x" : parts.replayConfig || parts.environment === "main" ? "1.x" : null;
  const metadata: Json = { environment: parts.environment ?? null, sweAgentVersion: info.swe_agent_version ?? version };
  if (finiteInt(stats.api_calls) !== null) metadata.apiCalls = stats.api_calls;
  for (const key of ["edited_files30", "edited_files50", "edited_files70", "review", "summarizer"]) if (info[key] !== undefined) metadata[key] = info[key];
  return {
    instanceId: sweAgentInstanceId(fileName, parts.replayConfig),
    role: "SOLVER",
    format: "SWE_AGENT",
    model: typeof model === "string" ? model : null,
    exitStatus: typeof info.exit_status === "string" ? info.exit_status : null,
    submission: typeof info.submission === "string" ? info.submission : null,
    tokensIn: finiteInt(stats.tokens_sent),
    tokensOut: finiteInt(stats.tokens_received),
    costUsd: finiteNumber(stats.instance_cost) ?? finiteNumber(stats.total_cost),
    metadata,
  };
}

/** Streams a .traj file's steps into the sink and returns its header. */
export async function produceSweAgentTrajectory(source: Readable, fileName: string, sink: StepSink): Promise<TrajectoryHeader> {
  const parts: { info: unknown; environment: unknown; replayConfig: unknown } = { info: null, environment: null, replayConfig: null };
  let sawTrajectory = false;
  const history = new HistoryStepper();
  for await (const part of readDocumentParts(source, new Set(["trajectory", "history"]))) {
    if (part.kind === "element" && part.key === "trajectory") {
      sawTrajectory = true;
      await sink.add(sweAgentStep(part.value));
    } else if (part.kind === "element" && part.key === "history") {
      if (!sawTrajectory) history.add(part.value);
    } else if (part.kind === "member") {
      if (part.key === "info") parts.info = part.value;
      else if (part.key === "environment") parts.environment = part.value;
      else if (part.key === "replay_config") parts.replayConfig = part.value;
    }
  }
  if (!sawTrajectory) {
    history.close();
    for (const step of history.steps) await sink.add(step);
  }
  return sweAgentHeader(parts, fileName);
}
