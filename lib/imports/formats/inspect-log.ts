import { z } from "zod";
import { contentText, finiteInt, makeStep, type StepRecord, type TrajectoryHeader } from "./trajectory-record";

// Inspect AI eval logs (.json, log format v2): each sample is one trajectory. Steps are
// the assistant's turns (its text, reasoning and tool calls) with the tool results that
// answer them as the observation. The scores stay in the trajectory's metadata.

type Json = Record<string, unknown>;

export const InspectEvalSchema = z
  .object({ run_id: z.string().nullish(), task: z.string().nullish(), model: z.string().nullish(), created: z.string().nullish(), eval_id: z.string().nullish() })
  .loose();
export type InspectEval = z.infer<typeof InspectEvalSchema>;

export const InspectSampleSchema = z
  .object({
    id: z.union([z.string(), z.number()]),
    epoch: z.number().int().default(1),
    messages: z.array(z.object({ role: z.string(), content: z.unknown().optional(), tool_calls: z.array(z.unknown()).nullish() }).loose()).default([]),
    output: z.object({ model: z.string().nullish(), usage: z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).loose().nullish() }).loose().nullish(),
    scores: z.record(z.string(), z.unknown()).nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    error: z.unknown().optional(),
    model_usage: z.record(z.string(), z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).loose()).nullish(),
  })
  .loose();

function reasoningOf(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const parts = content.filter((p) => (p as Json)?.type === "reasoning").map((p) => String((p as Json).reasoning ?? ""));
  return parts.length ? parts.join("\n") : null;
}

function textOf(content: unknown): string | null {
  if (!Array.isArray(content)) return contentText(content);
  return contentText(content.filter((p) => (p as Json)?.type !== "reasoning"));
}

function toolCallText(calls: unknown[] | null | undefined): string | null {
  if (!calls?.length) return null;
  return calls.map((c) => `${(c as Json).function}(${JSON.stringify((c as Json).arguments ?? {})})`).join("\n");
}

export function inspectSteps(messages: z.infer<typeof InspectSampleSchema>["messages"]): StepRecord[] {
  const steps: StepRecord[] = [];
  let current: { thought: string | null; action: string | null; observation: string[] } | null = null;
  const close = () => {
    if (current) steps.push(makeStep({ ...current, observation: current.observation.length ? current.observation.join("\n") : null }));
    current = null;
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      close();
      const text = textOf(message.content);
      const tools = toolCallText(message.tool_calls);
      current = { thought: reasoningOf(message.content) ?? (tools ? text : null), action: tools ?? text, observation: [] };
    } else if (message.role === "tool" && current) {
      const text = contentText(message.content);
      if (text) current.observation.push(text);
    }
  }
  close();
  return steps;
}

export function inspectSample(value: unknown, evalInfo: InspectEval | null, fileName: string): { externalId: string; header: TrajectoryHeader; steps: StepRecord[] } {
  const sample = InspectSampleSchema.parse(value);
  const usage = sample.output?.usage ?? Object.values(sample.model_usage ?? {})[0] ?? null;
  const instanceId = typeof sample.metadata?.instance_id === "string" ? sample.metadata.instance_id : String(sample.id);
  const run = evalInfo?.run_id ?? evalInfo?.eval_id ?? fileName;
  return {
    externalId: `inspect:${run}:${sample.id}:${sample.epoch}`,
    steps: inspectSteps(sample.messages),
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
      metadata: { task: evalInfo?.task ?? null, epoch: sample.epoch, scores: sample.scores ?? null, sampleMetadata: sample.metadata ?? null, ...(sample.error ? { error: sample.error } : {}) },
    },
  };
}
