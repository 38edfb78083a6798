import { z } from "zod";
import {
  contentText,
  finiteInt,
  makeStep,
  type StepRecord,
  type TrajectoryHeader,
} from "../../records/trajectory-record";

// Inspect AI eval logs (a .json log, or the native .eval zip of header.json and
// samples/*.json): each sample is one trajectory, its steps every model turn, tool call and
// tool result. The scores stay in the trajectory's metadata.

type Json = Record<string, unknown>;

export const InspectEvalSchema = z
  .object({
    run_id: z.string().nullish(),
    task: z.string().nullish(),
    model: z.string().nullish(),
    created: z.string().nullish(),
    eval_id: z.string().nullish(),
  })
  .loose();
export type InspectEval = z.infer<typeof InspectEvalSchema>;

export const InspectSampleSchema = z
  .object({
    id: z.union([z.string(), z.number()]),
    epoch: z.number().int().default(1),
    messages: z
      .array(
        z
          .object({
            role: z.string(),
            content: z.unknown().optional(),
            tool_calls: z.array(z.unknown()).nullish(),
            tool_call_id: z.string().nullish(),
            function: z.string().nullish(),
            error: z.unknown().optional(),
          })
          .loose(),
      )
      .default([]),
    attachments: z.record(z.string(), z.unknown()).nullish(),
    output: z
      .object({
        model: z.string().nullish(),
        usage: z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).loose().nullish(),
      })
      .loose()
      .nullish(),
    scores: z.record(z.string(), z.unknown()).nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    error: z.unknown().optional(),
    model_usage: z
      .record(z.string(), z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).loose())
      .nullish(),
  })
  .loose();

function reasoningOf(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const parts = content
    .filter((p) => (p as Json)?.type === "reasoning")
    .map((p) => String((p as Json).reasoning ?? ""));
  return parts.length ? parts.join("\n") : null;
}

function textOf(content: unknown): string | null {
  if (!Array.isArray(content)) return contentText(content);
  return contentText(content.filter((p) => (p as Json)?.type !== "reasoning"));
}

function callText(call: Json): string {
  return `${call.function}(${JSON.stringify(call.arguments ?? {})})`;
}

function toolErrorText(error: unknown): string | null {
  if (!error || typeof error !== "object") return null;
  const { type, message } = error as Json;
  return `tool error${typeof type === "string" ? ` (${type})` : ""}: ${typeof message === "string" ? message : JSON.stringify(error)}`;
}

type Message = z.infer<typeof InspectSampleSchema>["messages"][number];
type Draft = { thought: string | null; action: string | null; observation: string | null; metadata: Json };

/**
 * Every model turn, tool call and tool result is a step: an assistant turn without tool
 * calls is one step, a turn with n calls is n steps (its text and reasoning on the first),
 * and each tool result is the observation of its call's step — or a step of its own when
 * no call in this sample asked for it. Tool errors are part of the observation.
 */
export function inspectSteps(messages: Message[]): StepRecord[] {
  const drafts: Draft[] = [];
  const byCallId = new Map<string, Draft>();
  for (const message of messages) {
    if (message.role === "assistant") {
      const text = textOf(message.content);
      const reasoning = reasoningOf(message.content);
      const calls = (message.tool_calls ?? []) as Json[];
      if (!calls.length) {
        drafts.push({ thought: reasoning, action: text, observation: null, metadata: {} });
        continue;
      }
      calls.forEach((call, i) => {
        const draft: Draft = {
          thought: i === 0 ? [reasoning, text].filter(Boolean).join("\n") || null : null,
          action: callText(call),
          observation: null,
          metadata: { toolCallId: call.id ?? null },
        };
        drafts.push(draft);
        if (typeof call.id === "string") byCallId.set(call.id, draft);
      });
    } else if (message.role === "tool") {
      const error = toolErrorText(message.error);
      const observation = [contentText(message.content), error].filter(Boolean).join("\n") || null;
      const callId = typeof message.tool_call_id === "string" ? message.tool_call_id : null;
      const answered = callId ? byCallId.get(callId) : undefined;
      const metadata = {
        toolCallId: callId,
        ...(typeof message.function === "string" ? { function: message.function } : {}),
        ...(message.error ? { toolError: message.error } : {}),
      };
      if (answered && answered.observation === null) {
        answered.observation = observation;
        Object.assign(answered.metadata, metadata);
      } else {
        drafts.push({
          thought: null,
          action: typeof message.function === "string" ? message.function : null,
          observation,
          metadata,
        });
      }
    }
  }
  return drafts.map((d) => makeStep({ ...d, metadata: Object.keys(d.metadata).length ? d.metadata : null }));
}

/** Newer logs move long texts to `attachments` and leave "attachment://<hash>" in their place. */
function resolveAttachments(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const match = /^attachment:\/\/([0-9a-f]+)$/.exec(value);
    return match && typeof attachments[match[1]] === "string" ? attachments[match[1]] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, attachments)]));
  return value;
}

export function inspectSample(
  value: unknown,
  evalInfo: InspectEval | null,
  fileName: string,
): { externalId: string; header: TrajectoryHeader; steps: StepRecord[] } {
  const sample = InspectSampleSchema.parse(value);
  const usage = sample.output?.usage ?? Object.values(sample.model_usage ?? {})[0] ?? null;
  const instanceId = typeof sample.metadata?.instance_id === "string" ? sample.metadata.instance_id : String(sample.id);
  const run = evalInfo?.run_id ?? evalInfo?.eval_id ?? fileName;
  return {
    externalId: `inspect:${run}:${sample.id}:${sample.epoch}`,
    steps: inspectSteps(
      sample.attachments ? (resolveAttachments(sample.messages, sample.attachments) as Message[]) : sample.messages,
    ),
    header: {
      instanceId,
      role: "SOLVER",
      format: "INSPECT",
      model: evalInfo?.model ?? sample.output?.model ?? null,
      exitStatus: sample.error ? "error" : "completed",
      submission: null,
      tokensIn: finiteInt(usage?.input_tokens),
      tokensOut: finiteInt(usage?.output_tokens),
      costUsd: null,
      metadata: {
        task: evalInfo?.task ?? null,
        epoch: sample.epoch,
        scores: sample.scores ?? null,
        sampleMetadata: sample.metadata ?? null,
        ...(sample.error ? { error: sample.error } : {}),
      },
    },
  };
}
