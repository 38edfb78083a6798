import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliImportInProcess as cliImport } from "../helpers/swe-curator-cli";
import { importTestBed, uploadThroughApi } from "../helpers/imports";

// A real R2E-Gym trajectory (test/fixtures/SOURCES.txt: R2E-Gym's EditingAgent on Qwen3-32B,
// saved with the pydantic model's model_dump()) through the entry points a user has: the
// `swe-curator import` command (run inside this process: the binary's boundary is imports-cli.test.ts's)
// and the upload the /imports page sends.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const real = fixture("r2e-gym", "trajectory_aiohttp_216e0828.json");
const record = () =>
  JSON.parse(readFileSync(real, "utf8")) as Record<string, unknown> & {
    trajectory_steps: Record<string, unknown>[];
    env_args: { ds: Record<string, string> };
  };

const MODEL = "hosted_vllm//home/claude/work/rllm/models/Qwen3-32B";
const INSTANCE = "aiohttp_216e0828";

describe("importing R2E-Gym trajectories", () => {
  const bed = importTestBed("r2e-gym-");
  const upload = (file: string) => uploadThroughApi(file, bed.token);
  const runsOf = (instanceId: string) =>
    bed.db.prisma.trajectory.findMany({
      where: { metadata: { path: ["instanceId"], equals: instanceId } },
      include: { steps: { orderBy: { index: "asc" } } },
    });

  it("imports a run before its task with every step, makes its output_patch the task's candidate when the task arrives, and a re-import duplicates nothing", async () => {
    const first = await cliImport([real], bed.env);
    expect(first.code).toBe(0);
    expect(first.batches[0]).toMatchObject({
      status: "SUCCEEDED",
      format: "R2E_GYM_TRAJECTORY",
      created: 1,
      failed: 0,
    });
    let [run] = await runsOf(INSTANCE);
    expect(run).toMatchObject({
      externalId: `r2e-gym:${MODEL}:${INSTANCE}`,
      format: "R2E_GYM",
      role: "SOLVER",
      model: MODEL,
      exitStatus: "agent",
      stepCount: 7,
      taskId: null,
      candidatePatchId: null,
      tokensIn: 2710 + 3964 + 4713 + 5414 + 5714 + 6202 + 6275,
      tokensOut: 550 + 263 + 592 + 611 + 682 + 366 + 501,
      metadata: expect.objectContaining({
        agent: "r2e-gym",
        exitReason: "agent",
        reward: null,
        dockerImage: "namanjain12/aiohttp_final:216e082807d02fafaacca57fc883c86826b126d3",
        maxSteps: 30,
      }),
    });
    expect(run.submission).toMatch(/^diff --git a\/Makefile b\/Makefile/);
    // the fourth step: its thought, R2E-Gym's function call as a tool-call line, the editor's answer
    expect(run.steps[3]).toMatchObject({
      kind: "EDIT",
      thought: expect.stringMatching(
        /^<think>\nOkay, let's see\. The user is reporting an issue where the AsyncResolver/,
      ),
      action:
        'file_editor({"command":"str_replace","path":"/testbed/aiohttp/resolver.py","old_str":"raise OSError(msg) from exc","new_str":"raise OSError(exc.args[0], msg) from exc"})',
      observation: expect.stringContaining("The file /testbed/aiohttp/resolver.py has been edited."),
      tokensIn: 5414,
      tokensOut: 611,
    });
    expect(run.steps.map((s) => s.kind)).toEqual(["READ", "READ", "READ", "EDIT", "EDIT", "RUN", "SUBMIT"]);
    expect(run.steps[2].action).toBe(
      'file_editor({"command":"view","path":"/testbed/aiohttp/resolver.py","view_range":[93,139],"concise":"False"})',
    );
    expect(run.steps[5]).toMatchObject({
      action: 'execute_bash({"cmd":"python3 /testbed/reproduce_issue.py"})',
      observation: expect.stringContaining("Test passed: Error message propagated correctly"),
    });

    // the task arrives by upload. R2E-Gym's own dataset rows carry no instance_id (the collecting
    // script named this one), so its SWE-bench row is written here from the record's `ds`
    const ds = record().env_args.ds;
    const instances = path.join(bed.dir, "aiohttp-instance.jsonl");
    writeFileSync(
      instances,
      JSON.stringify({
        instance_id: ds.instance_id,
        repo: "aio-libs/aiohttp",
        base_commit: ds.commit_hash,
        problem_statement: ds.problem_statement,
        patch: "",
        test_patch: "",
      }) + "\n",
    );
    expect(await upload(instances)).toMatchObject({ status: "SUCCEEDED", format: "SWE_BENCH_INSTANCES", created: 1 });
    [run] = await runsOf(INSTANCE);
    const task = await bed.db.prisma.task.findUniqueOrThrow({ where: { instanceId: INSTANCE } });
    const candidate = await bed.db.prisma.candidatePatch.findUniqueOrThrow({
      where: { taskId_generator: { taskId: task.id, generator: MODEL } },
    });
    expect(run).toMatchObject({ taskId: task.id, candidatePatchId: candidate.id });
    expect(candidate).toMatchObject({
      resolved: null,
      patch: run.submission!.endsWith("\n") ? run.submission : `${run.submission}\n`,
    });

    // the same file again, by upload and by the CLI: nothing new, the link kept
    expect(await upload(real)).toMatchObject({
      status: "SUCCEEDED",
      format: "R2E_GYM_TRAJECTORY",
      unchanged: 1,
      created: 0,
    });
    const again = await cliImport([real], bed.env);
    expect(again.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 1, created: 0 });
    const runs = await runsOf(INSTANCE);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: run.id, taskId: task.id, candidatePatchId: candidate.id, stepCount: 7 });
    expect(await bed.db.prisma.candidatePatch.count({ where: { taskId: task.id } })).toBe(1);
    expect(await bed.db.prisma.trajectoryStep.count({ where: { trajectoryId: run.id } })).toBe(7);
  });

  it("reads R2E-Gym's own layout, a run per JSONL line, and reports a bad record as one plain sentence with its line and field", async () => {
    // runagent_multiple writes model_dump_json() lines to <exp_name>.jsonl: the real record under two experiment names
    const line = (expName: string) => JSON.stringify({ ...record(), exp_name: expName });
    const broken = { ...record(), exp_name: "exp-b" };
    broken.trajectory_steps[2] = { ...broken.trajectory_steps[2], observation: 42 };
    const file = path.join(bed.dir, "r2egym-runs.jsonl");
    writeFileSync(file, [line("exp-a"), JSON.stringify(broken), line("exp-c")].join("\n") + "\n");

    const { code, batches, stderr } = await cliImport([file], bed.env);
    expect(code).toBe(1);
    expect(batches[0]).toMatchObject({
      status: "PARTIAL",
      format: "R2E_GYM_TRAJECTORY",
      created: 2,
      failed: 1,
      errors: [
        {
          line: 2,
          reason: expect.stringContaining(
            "trajectory_steps[2].observation must be text, not a number: this file was read as",
          ),
        },
      ],
    });
    expect(stderr).not.toMatch(/Invalid input|ZodError|\n\s+at /);
    const runs = await runsOf(INSTANCE);
    expect(runs.map((r) => r.externalId).sort()).toEqual([
      `r2e-gym:exp-a:${INSTANCE}`,
      `r2e-gym:exp-c:${INSTANCE}`,
      `r2e-gym:${MODEL}:${INSTANCE}`,
    ]);
    // the experiments submitted the same patch: one candidate, which every run links to
    const task = await bed.db.prisma.task.findUniqueOrThrow({ where: { instanceId: INSTANCE } });
    const candidates = await bed.db.prisma.candidatePatch.findMany({ where: { taskId: task.id } });
    expect(candidates).toHaveLength(1);
    expect(runs.map((r) => r.candidatePatchId)).toEqual([candidates[0].id, candidates[0].id, candidates[0].id]);

    // the same sentence in the upload's report, for the /imports page to show
    expect(await upload(file)).toMatchObject({
      status: "PARTIAL",
      unchanged: 2,
      failed: 1,
      errors: [
        {
          line: 2,
          reason: expect.stringContaining(
            "trajectory_steps[2].observation must be text, not a number: this file was read as",
          ),
        },
      ],
    });
  });
});
