import { z } from "zod";
import { generatorOfFile, type ChooseGenerator } from "../../user-generator";
import {
  finiteInt,
  finiteNumber,
  makeStep,
  type StepRecord,
  type TrajectoryHeader,
} from "../../records/trajectory-record";

// R2E-Gym's `Trajectory` (src/r2egym/agenthub/trajectory/trajectory.py), one run per record:
// `runagent_multiple` appends `model_dump_json()` lines to `<exp_name>.jsonl`; scripts around
// it also save one `model_dump()` as a .json file. A record holds `trajectory_steps` (thought,
// action, observation, tokens and times), the dataset row it ran on (`ds`, also under
// `env_args.ds`), the agent's settings (`agent_args.llm_name`), `exit_reason`, `output_patch`,
// and after the tests ran `reward` (1 resolved, 0 not) and `test_output`.
//
// An action is R2E-Gym's function call, `<function=file_editor>\n  <parameter=command>view
// </parameter>…</function>`, read as R2E-Gym's Action.from_string reads it (the first function,
// every parameter, values stripped) and kept as `file_editor({"command":"view",…})`, the tool-call
// line the other formats' steps use, so step kinds and edits are found the same way.

const DatasetRowSchema = z
  .object({
    instance_id: z.string().nullish(),
    docker_image: z.string().nullish(),
    repo: z.string().nullish(),
    repo_name: z.string().nullish(),
  })
  .loose();

const number = z.number().nullish();

export const R2EGymStepSchema = z
  .object({
    step_idx: number,
    thought: z.string().nullish(),
    action: z.string().nullish(),
    observation: z.string().nullish(),
    done: z.boolean().nullish(),
    token_usage_prompt: number,
    token_usage_completion: number,
    llm_exec_time: number,
    env_exec_time: number,
    total_step_time: number,
    total_time_traj: number,
  })
  .loose();

export const R2EGymTrajectorySchema = z
  .object({
    trajectory_steps: z.array(R2EGymStepSchema),
    exit_reason: z.string().nullish(),
    output_patch: z.string().nullish(),
    docker_image: z.string().nullish(),
    exp_name: z.string().nullish(),
    ds: DatasetRowSchema.nullish(),
    env_args: z.object({ ds: DatasetRowSchema.nullish() }).loose().nullish(),
    agent_args: z.object({ llm_name: z.string().nullish() }).loose().nullish(),
    max_steps: number,
    reward: number,
    reward_calc_time: number,
    verifier_prob: number,
  })
  .loose();
export type R2EGymTrajectory = z.infer<typeof R2EGymTrajectorySchema>;

/** Where `<name=` … `>` ends, and the name, starting at `from` (an index of `<name`); null when it is not such a tag. */
function tagAt(text: string, from: number, tag: string): { value: string; end: number } | null {
  let at = from + tag.length + 1;
  while (/\s/.test(text[at] ?? "")) at++;
  if (text[at] !== "=") return null;
  const close = text.indexOf(">", at);
  if (close === -1) return null;
  const value = text.slice(at + 1, close).trim();
  return value ? { value, end: close + 1 } : null;
}

// parameters whose text R2E-Gym's tools turn into numbers or a list
const TYPED_PARAMETERS = new Set(["insert_line", "view_range"]);

function parameterValue(name: string, text: string): unknown {
  if (!TYPED_PARAMETERS.has(name)) return text;
  if (/^-?\d+$/.test(text)) return Number(text);
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((n) => typeof n === "number") ? parsed : text;
  } catch {
    return text;
  }
}

/** R2E-Gym's `<function=NAME><parameter=KEY>VALUE</parameter>…</function>` as `NAME({"KEY": VALUE, …})`; other text as it is. */
export function r2eGymActionText(action: string | null | undefined): string | null {
  if (!action?.trim()) return null;
  const start = action.indexOf("<function");
  const fn = start === -1 ? null : tagAt(action, start, "function");
  if (!fn) return action;
  const parameters: Record<string, unknown> = {};
  for (let at = action.indexOf("<parameter"); at !== -1; at = action.indexOf("<parameter", at + 1)) {
    const key = tagAt(action, at, "parameter");
    if (!key) continue;
    const close = action.indexOf("</parameter>", key.end);
    if (close === -1) break;
    parameters[key.value] = parameterValue(key.value, action.slice(key.end, close).trim());
    at = close;
  }
  return `${fn.value}(${JSON.stringify(parameters)})`;
}

const millis = (seconds: number | null) => (seconds === null ? null : seconds * 1000);

export function r2eGymStep(step: z.infer<typeof R2EGymStepSchema>): StepRecord {
  const llm = finiteNumber(step.llm_exec_time);
  const env = finiteNumber(step.env_exec_time);
  const total = finiteNumber(step.total_step_time) ?? (llm !== null || env !== null ? (llm ?? 0) + (env ?? 0) : null);
  return makeStep({
    thought: step.thought?.trim() ? step.thought : null,
    action: r2eGymActionText(step.action),
    observation: step.observation,
    tokensIn: finiteInt(step.token_usage_prompt),
    tokensOut: finiteInt(step.token_usage_completion),
    durationMs: millis(total),
    metadata: {
      ...(finiteInt(step.step_idx) !== null ? { stepIdx: step.step_idx } : {}),
      ...(typeof step.done === "boolean" ? { done: step.done } : {}),
      ...(llm !== null ? { llmSeconds: llm } : {}),
      ...(env !== null ? { envSeconds: env } : {}),
    },
  });
}

/**
 * The task a run worked on: the dataset row's `instance_id`, else the one a SWE-bench image
 * names (`…sweb.eval.x86_64.astropy__astropy-12907`, newer images `…django_1776_django-15781:latest`).
 * R2E-Gym's own rows have no instance id; their image (`namanjain12/aiohttp_final:<commit>`) is
 * their identity, as R2E-Gym itself tells runs apart by it.
 */
export function r2eGymInstanceId(record: Pick<R2EGymTrajectory, "ds" | "env_args" | "docker_image">): string | null {
  const row = record.ds ?? record.env_args?.ds;
  const named = row?.instance_id?.trim();
  if (named) return named;
  const image = record.docker_image ?? row?.docker_image ?? "";
  const at = image.lastIndexOf("sweb.eval.");
  if (at === -1) return null;
  const instance = image
    .slice(at + "sweb.eval.".length)
    .replace(/^[^.]+\./, "") // the architecture
    .replace(/:[^:/]*$/, "") // the tag
    .replace(/_1776_/g, "__");
  return instance || null;
}

export type R2EGymRun = { externalId: string; header: TrajectoryHeader; steps: StepRecord[] };

/** One record: its steps, its header, and its natural key `r2e-gym:<exp_name or model>:<instance or image>`. */
export function r2eGymRun(value: unknown, hash: string, chooseGenerator: ChooseGenerator = generatorOfFile): R2EGymRun {
  const record = R2EGymTrajectorySchema.parse(value);
  const steps = record.trajectory_steps.map(r2eGymStep);
  const instanceId = r2eGymInstanceId(record);
  const row = record.ds ?? record.env_args?.ds;
  const dockerImage = record.docker_image ?? row?.docker_image ?? null;
  const model = record.agent_args?.llm_name?.trim() || null;
  const generator = chooseGenerator(
    record.exp_name?.trim() || model,
    instanceId ?? dockerImage ?? "a record without an instance",
  );
  const sum = (values: (number | null)[]) =>
    values.some((v) => v !== null) ? values.reduce<number>((a, v) => a + (v ?? 0), 0) : null;
  const last = record.trajectory_steps.at(-1);
  const header: TrajectoryHeader = {
    instanceId,
    role: "SOLVER",
    format: "R2E_GYM",
    model,
    exitStatus: record.exit_reason ?? null,
    submission: record.output_patch?.trim() ? record.output_patch : null,
    generator,
    tokensIn: sum(steps.map((s) => s.tokensIn)),
    tokensOut: sum(steps.map((s) => s.tokensOut)),
    costUsd: null,
    metadata: {
      agent: "r2e-gym",
      expName: record.exp_name ?? null,
      dockerImage,
      repo: row?.repo ?? row?.repo_name ?? null,
      exitReason: record.exit_reason ?? null,
      reward: finiteNumber(record.reward),
      ...(finiteNumber(record.reward_calc_time) !== null ? { rewardCalcSeconds: record.reward_calc_time } : {}),
      ...(finiteNumber(record.verifier_prob) !== null ? { verifierProb: record.verifier_prob } : {}),
      ...(finiteInt(record.max_steps) !== null ? { maxSteps: record.max_steps } : {}),
      ...(finiteNumber(last?.total_time_traj) !== null ? { totalSeconds: last!.total_time_traj } : {}),
    },
  };
  const subject = instanceId ?? dockerImage;
  const externalId =
    generator && subject
      ? `r2e-gym:${generator}:${subject}`
      : `r2e-gym:${subject ?? "unknown"}:sha256-${hash.slice(0, 16)}`;
  return { externalId, header, steps };
}
