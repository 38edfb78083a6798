import { z } from "zod";
import {
  contentText,
  finiteInt,
  finiteNumber,
  makeStep,
  type StepRecord,
  type TrajectoryHeader,
} from "../../records/trajectory-record";
import { generatorOfFile, type ChooseGenerator } from "../../user-generator";
import { chatSteps } from "../chat-steps";

// OpenHands event streams: actions (source agent/user) and observations (source
// environment, `cause` = the action's id). Every event is a step, except that an
// observation answering the action just before it is that action's step's observation;
// only the system prompt and the controller's state changes are left out.
// Token usage rides on tool_call_metadata.model_response.usage, repeated on the
// observation — counted once, from the action.

type Json = Record<string, unknown>;

// Today's OpenHands (the software-agent SDK, which the `benchmarks` evaluation writes into
// output.jsonl's `history`) names each event by its `kind` (ActionEvent, ObservationEvent,
// MessageEvent, …), gives it a string id, and nests the action and the observation as objects
// with their own `kind`; an observation points at its action by `action_id`. Such an event is
// turned into the older shape here, so one stepper reads both.

const EventId = z.union([z.number().int(), z.string()]);

export const OpenHandsEventSchema = z
  .object({
    id: EventId.optional(),
    source: z.string().optional(),
    // a name in the older events, an object (with its own kind) in the SDK's
    action: z.union([z.string(), z.object({}).loose()]).optional(),
    observation: z.union([z.string(), z.object({}).loose()]).optional(),
    cause: EventId.nullish(),
  })
  .loose();

const SDK_SKIPPED = new Set([
  "SystemPromptEvent",
  "ConversationStateUpdateEvent",
  "PauseEvent",
  "Condensation",
  "CondensationRequest",
  "CondensationSummaryEvent",
  "TokenEvent",
]);
/** the SDK's action kinds, as the older action names where one exists */
const SDK_ACTIONS: Record<string, string> = {
  TerminalAction: "run",
  ExecuteBashAction: "run",
  FinishAction: "finish",
  ThinkAction: "think",
  BrowserNavigateAction: "browse",
};

const sdkText = (value: unknown) => contentText(value) ?? (typeof value === "string" ? value : null);

/** An SDK event in the older shape, or null when it is bookkeeping (the system prompt, state updates). */
export function fromSdkEvent(event: Json): Json | null {
  const kind = event.kind as string;
  if (SDK_SKIPPED.has(kind)) return null;
  const base = { id: event.id, source: event.source, timestamp: event.timestamp, sdkKind: kind };
  if (kind === "ActionEvent") {
    const action = (event.action ?? {}) as Json;
    const name =
      SDK_ACTIONS[action.kind as string] ??
      (typeof event.tool_name === "string" ? event.tool_name : String(action.kind ?? "action"));
    const args: Json = {
      ...action,
      thought:
        sdkText(event.thought) ?? (typeof event.reasoning_content === "string" ? event.reasoning_content : undefined),
    };
    delete args.kind;
    if (name === "finish") args.final_thought = action.message;
    return {
      ...base,
      action:
        name === "run" || name === "finish" || name === "think" || name === "browse"
          ? name
          : ((action.kind as string) ?? name),
      args,
      sdkAction: action,
    };
  }
  if (kind === "ObservationEvent" || kind === "AgentErrorEvent" || kind === "UserRejectObservation") {
    const observation = (event.observation ?? {}) as Json;
    const content = sdkText(observation.content) ?? sdkText(event.error) ?? sdkText(event.rejection_reason);
    const exitCode = observation.exit_code ?? (observation.metadata as Json | undefined)?.exit_code;
    return {
      ...base,
      observation: (observation.kind as string) ?? kind,
      content,
      cause: event.action_id ?? null,
      extras: exitCode !== undefined ? { metadata: { exit_code: exitCode } } : {},
    };
  }
  if (kind === "MessageEvent") {
    const message = (event.llm_message ?? {}) as Json;
    return { ...base, action: "message", args: { content: sdkText(message.content) } };
  }
  return { ...base, action: kind, args: {} };
}

/** The SDK's events carry a `kind` naming the event class; the older ones an `action` or `observation` string. */
const isSdkEvent = (event: Json) =>
  typeof event.kind === "string" && typeof event.action !== "string" && typeof event.observation !== "string";

function actionText(event: Json): string | null {
  const args = (event.args ?? {}) as Json;
  if (event.sdkAction && !["run", "finish", "think", "message"].includes(event.action as string)) {
    // an SDK tool call: its name and arguments, as the model called it
    const { thought: _thought, final_thought: _final, ...rest } = args;
    return `${event.action}${Object.keys(rest).length ? " " + JSON.stringify(rest) : ""}`;
  }
  switch (event.action) {
    case "run":
    case "run_ipython":
      return typeof args.command === "string" ? args.command : typeof args.code === "string" ? args.code : null;
    case "read":
      return `read ${args.path ?? ""}`.trim();
    case "edit":
      return [
        `edit ${args.path ?? ""}`.trim(),
        args.command && `command: ${args.command}`,
        args.old_str && `old: ${args.old_str}`,
        args.new_str && `new: ${args.new_str}`,
        args.file_text && `file: ${args.file_text}`,
        args.content && `content: ${args.content}`,
      ]
        .filter(Boolean)
        .join("\n");
    case "browse":
      return `browse ${args.url ?? ""}`.trim();
    case "message":
      return null;
    case "finish":
      return "finish";
    default:
      return event.action ? `${event.action}${Object.keys(args).length ? " " + JSON.stringify(args) : ""}` : null;
  }
}

function usageOf(event: Json): { tokensIn: number | null; tokensOut: number | null; model: string | null } {
  const response = ((event.tool_call_metadata as Json | undefined)?.model_response ?? {}) as Json;
  const usage = (response.usage ?? {}) as Json;
  return {
    tokensIn: finiteInt(usage.prompt_tokens),
    tokensOut: finiteInt(usage.completion_tokens),
    model: typeof response.model === "string" ? response.model : null,
  };
}

/** Turns a stream of events into steps; feed events in order, then call finish(). */
export class OpenHandsStepper {
  private pending: { event: Json; observations: string[]; extras: Json[] } | null = null;
  model: string | null = null;
  tokensIn = 0;
  tokensOut = 0;
  sawTokens = false;
  costUsd: number | null = null;
  finishOutputs: string | null = null;

  /** returns the steps completed by this event */
  add(raw: unknown): StepRecord[] {
    const parsed = OpenHandsEventSchema.parse(raw) as Json;
    const event = isSdkEvent(parsed) ? fromSdkEvent(parsed) : parsed;
    if (!event) return [];
    const metrics = (event.llm_metrics ?? {}) as Json;
    const cost = finiteNumber(metrics.accumulated_cost);
    if (cost !== null) this.costUsd = cost;
    if (typeof event.observation === "string") {
      const text = contentText(event.content) ?? (typeof event.message === "string" ? event.message : null);
      const extras = (event.extras ?? {}) as Json;
      const extra = {
        observation: event.observation,
        ...(extras.metadata && typeof extras.metadata === "object"
          ? { exitCode: (extras.metadata as Json).exit_code }
          : {}),
      };
      const matches =
        this.pending && (event.cause === undefined || event.cause === null || event.cause === this.pending.event.id);
      if (matches && this.pending) {
        if (text) this.pending.observations.push(text);
        this.pending.extras.push(extra);
        return [];
      }
      // an observation nothing just before asked for (an error, a state change): a step of its own
      const done = this.flush();
      if (!text && event.observation === "agent_state_changed") return done;
      return [
        ...done,
        makeStep({
          observation: text,
          metadata: {
            eventId: event.id ?? null,
            source: event.source ?? null,
            kind: event.observation,
            ...(typeof event.timestamp === "string" ? { timestamp: event.timestamp } : {}),
            observations: [extra],
          },
        }),
      ];
    }
    if (typeof event.action === "string") {
      const done = this.flush();
      // the system prompt is configuration, and a state change is the controller's bookkeeping
      if (event.action === "system" || event.action === "agent_state_changed") return done;
      const usage = usageOf(event);
      if (usage.model) this.model = usage.model;
      if (usage.tokensIn !== null || usage.tokensOut !== null) {
        this.sawTokens = true;
        this.tokensIn += usage.tokensIn ?? 0;
        this.tokensOut += usage.tokensOut ?? 0;
      }
      if (event.action === "finish") {
        const args = (event.args ?? {}) as Json;
        this.finishOutputs =
          typeof args.final_thought === "string"
            ? args.final_thought
            : typeof event.message === "string"
              ? event.message
              : null;
      }
      this.pending = { event, observations: [], extras: [] };
      return done;
    }
    return [];
  }

  private flush(): StepRecord[] {
    if (!this.pending) return [];
    const { event, observations, extras } = this.pending;
    this.pending = null;
    const args = (event.args ?? {}) as Json;
    const usage = usageOf(event);
    const isMessage = event.action === "message";
    const thought =
      typeof args.thought === "string" && args.thought
        ? args.thought
        : isMessage || event.action === "finish"
          ? (contentText(args.content) ?? (event.message as string | undefined) ?? null)
          : null;
    const step = makeStep({
      thought: event.source === "user" ? null : thought,
      action: actionText(event),
      observation:
        event.source === "user"
          ? (contentText(args.content) ?? (event.message as string | undefined) ?? null)
          : observations.length
            ? observations.join("\n")
            : null,
      tokensIn: usage.tokensIn,
      tokensOut: usage.tokensOut,
      metadata: {
        eventId: event.id ?? null,
        source: event.source ?? null,
        kind: event.action,
        ...(typeof event.timestamp === "string" ? { timestamp: event.timestamp } : {}),
        ...(extras.length ? { observations: extras } : {}),
      },
    });
    return [step];
  }

  finish(): StepRecord[] {
    return this.flush();
  }
}

export function openHandsHeader(
  stepper: OpenHandsStepper,
  extra: {
    instanceId: string | null;
    model?: string | null;
    submission?: string | null;
    costUsd?: number | null;
    metadata?: Json | null;
    exitStatus?: string | null;
  },
): TrajectoryHeader {
  return {
    instanceId: extra.instanceId,
    role: "SOLVER",
    format: "OPENHANDS",
    model: extra.model ?? stepper.model,
    exitStatus: extra.exitStatus ?? (stepper.finishOutputs !== null ? "finished" : null),
    submission: extra.submission ?? null,
    tokensIn: stepper.sawTokens ? stepper.tokensIn : null,
    tokensOut: stepper.sawTokens ? stepper.tokensOut : null,
    costUsd: extra.costUsd ?? stepper.costUsd,
    metadata: extra.metadata ?? null,
  };
}

/**
 * One line of OpenHands' evaluation output.jsonl (a whole run with its event `history`), or
 * one row of SWE-Gym's OpenHands-Sampled-Trajectories (the same run as chat `messages`,
 * with `run_id` and `resolved`; its instance ids carry a sample suffix, `python__mypy-15976_0`).
 */
export const OpenHandsOutputLineSchema = z
  .object({
    instance_id: z.string().min(1),
    history: z.array(z.unknown()).nullish(),
    messages: z.array(z.unknown()).nullish(),
    run_id: z.string().nullish(),
    resolved: z.boolean().nullish(),
    instruction: z.string().nullish(),
    // older runs: metadata.llm_config.model; the SDK-based benchmarks: metadata.llm.model
    metadata: z
      .object({
        llm_config: z.object({ model: z.string().nullish() }).loose().nullish(),
        llm: z.object({ model: z.string().nullish() }).loose().nullish(),
        agent_class: z.string().nullish(),
      })
      .loose()
      .nullish(),
    test_result: z.object({ git_patch: z.string().nullish() }).loose().nullish(),
    metrics: z
      .object({
        accumulated_cost: z.number().nullish(),
        accumulated_token_usage: z
          .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
    error: z.string().nullish(),
  })
  .loose()
  .refine((line) => line.history || line.messages, {
    message: "a run needs its events (history) or its chat (messages)",
    path: ["history"],
  });

const SAMPLE_SUFFIX = /_\d+$/;

/** `chooseGenerator` lets the user's generator win over the run id or the model the line names. */
export function openHandsOutputLine(
  value: unknown,
  chooseGenerator: ChooseGenerator = generatorOfFile,
): { externalId: string; header: TrajectoryHeader; steps: StepRecord[] } {
  const line = OpenHandsOutputLineSchema.parse(value);
  const stepper = new OpenHandsStepper();
  const steps: StepRecord[] = [];
  if (line.history) {
    for (const event of line.history) steps.push(...stepper.add(event));
    steps.push(...stepper.finish());
  } else steps.push(...chatSteps(line.messages ?? [], "messages"));
  const usage = line.metrics?.accumulated_token_usage;
  // SWE-Gym's rows name the task with a sample suffix; SWE-bench-style ids never end in _<n>
  const instanceId = line.messages && line.run_id ? line.instance_id.replace(SAMPLE_SUFFIX, "") : line.instance_id;
  const header = openHandsHeader(stepper, {
    instanceId,
    model: line.metadata?.llm_config?.model ?? line.metadata?.llm?.model ?? null,
    submission: line.test_result?.git_patch?.trim() ? line.test_result.git_patch : null,
    costUsd: line.metrics?.accumulated_cost ?? null,
    exitStatus: line.error ? "error" : null,
    metadata: {
      agentClass: line.metadata?.agent_class ?? null,
      ...(line.error ? { error: line.error } : {}),
      ...(line.run_id ? { runId: line.run_id, sample: line.instance_id } : {}),
      ...(typeof line.resolved === "boolean" ? { resolved: line.resolved } : {}),
    },
  });
  if (usage?.prompt_tokens != null) header.tokensIn = Math.round(usage.prompt_tokens);
  if (usage?.completion_tokens != null) header.tokensOut = Math.round(usage.completion_tokens);
  header.generator = chooseGenerator(line.run_id ?? header.model, line.instance_id);
  return { externalId: `openhands:${header.generator ?? "unknown"}:${line.instance_id}`, header, steps };
}
