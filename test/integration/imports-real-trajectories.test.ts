import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliImportInProcess as cliImport } from "../helpers/swe-curator-cli";
import { importTestBed, uploadThroughApi } from "../helpers/imports";

// Real public trajectory files (test/fixtures/SOURCES.txt) through the entry points a user
// has: the `swe-curator import` command, and the upload API the /imports page calls.
// Each of these failed before: unrecognised, duplicated, 0 steps, or a submission lost.
// The command runs inside this process (its main, stdout, stderr, exit code and working folder):
// what is checked here is what it reads and writes; the real binary's boundary is imports-cli.test.ts's.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const real = (name: string) => fixture("trajectories", name);

describe("importing the trajectory formats in use today", () => {
  const bed = importTestBed("real-traj-");

  const upload = (file: string, query = "") => uploadThroughApi(file, bed.token, query);

  const trajectoryOf = (instanceId: string) =>
    bed.db.prisma.trajectory.findMany({
      where: { metadata: { path: ["instanceId"], equals: instanceId } },
      include: { steps: { orderBy: { index: "asc" } } },
    });

  it("recognises a 391 KB .traj whose first key runs past the first 256 KB, and imports its steps", async () => {
    const { code, batches } = await cliImport([real("swe-agent_marshmallow-code__marshmallow-1867.traj")], bed.env);
    expect(code).toBe(0);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "SWE_AGENT_TRAJECTORY", created: 1 });
    const [trajectory] = await trajectoryOf("marshmallow-code__marshmallow-1867");
    expect(trajectory).toMatchObject({ stepCount: 13, model: "replay", exitStatus: "submitted" });
    expect(trajectory.steps[0].action).toMatch(/^ls -F/);
  });

  it("keeps one trajectory when the same file is imported again from another folder", async () => {
    for (const folder of ["run-a", "run-b/nested"]) {
      mkdirSync(path.join(bed.dir, folder), { recursive: true });
      copyFileSync(
        real("swe-agent_marshmallow-code__marshmallow-1867.traj"),
        path.join(bed.dir, folder, "marshmallow-code__marshmallow-1867.traj"),
      );
    }
    // relative paths from the working folder, as a user types them
    const first = await cliImport(["run-a/marshmallow-code__marshmallow-1867.traj"], bed.env, bed.dir);
    const second = await cliImport(
      ["marshmallow-code__marshmallow-1867.traj"],
      bed.env,
      path.join(bed.dir, "run-b/nested"),
    );
    expect(first.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 1, created: 0 });
    expect(second.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 1, created: 0 });
    expect(await trajectoryOf("marshmallow-code__marshmallow-1867")).toHaveLength(1);
  });

  it("derives steps from `history` when a .traj has no `trajectory` (function-calling demonstration)", async () => {
    const { batches } = await cliImport([real("swe-agent_function_calling_simple.traj")], bed.env);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "SWE_AGENT_TRAJECTORY", created: 1 });
    const [trajectory] = await trajectoryOf("swe-agent_function_calling_simple");
    expect(trajectory.steps.map((s) => s.action)).toEqual([
      "find_file missing_colon.py",
      'open "tests/missing_colon.py"',
      "edit 'def division(a: float, b: float) -> float' 'def division(a: float, b: float) -> float:'",
      "python tests/missing_colon.py",
      "submit",
    ]);
    expect(trajectory.steps[0]).toMatchObject({
      thought: expect.stringContaining("missing colon"),
      observation: expect.stringContaining('Found 1 matches for "missing_colon.py"'),
    });
    expect(trajectory.steps[4].observation).toContain("diff --git a/tests/missing_colon.py");
  });

  it("imports a mini-swe-agent run before its task, keeps the submission, and makes it a candidate patch when the task arrives", async () => {
    const early = await cliImport([real("mini-swe-agent_django__django-16255.traj.json")], bed.env);
    expect(early.batches[0]).toMatchObject({ status: "SUCCEEDED", format: "SWE_AGENT_TRAJECTORY", created: 1 });
    let [trajectory] = await trajectoryOf("django__django-16255");
    expect(trajectory).toMatchObject({
      taskId: null,
      candidatePatchId: null,
      model: "google/gemini-3-pro-preview",
      exitStatus: "Submitted",
      stepCount: 17,
      costUsd: 0.08934840000000001,
    });
    expect(trajectory.submission).toMatch(/^diff --git a\/django\/contrib\/sitemaps\/__init__.py/);
    expect(trajectory.steps[0]).toMatchObject({
      action: "ls -R django/contrib/sitemaps",
      thought: expect.stringMatching(/^THOUGHT: I need to locate/),
      observation: expect.stringContaining("<returncode>0</returncode>"),
    });

    const tasks = await cliImport([fixture("swe-bench/swe-bench-lite-test.json")], bed.env);
    expect(tasks.batches[0]).toMatchObject({ status: "SUCCEEDED", created: 5 });
    [trajectory] = await trajectoryOf("django__django-16255");
    const task = await bed.db.prisma.task.findUniqueOrThrow({ where: { instanceId: "django__django-16255" } });
    const candidate = await bed.db.prisma.candidatePatch.findUniqueOrThrow({
      where: { taskId_generator: { taskId: task.id, generator: "google/gemini-3-pro-preview" } },
    });
    expect(trajectory).toMatchObject({ taskId: task.id, candidatePatchId: candidate.id });
    expect(candidate).toMatchObject({ resolved: null, patch: trajectory.submission!.replace(/^\n+/, "") });

    // importing the file again changes nothing and keeps the link
    const again = await cliImport([real("mini-swe-agent_django__django-16255.traj.json")], bed.env);
    expect(again.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 1 });
    expect(await bed.db.prisma.candidatePatch.count({ where: { taskId: task.id } })).toBe(1);
  });

  it("links a trajectory imported before its task when the task arrives by upload; the missing-task advice works when followed", async () => {
    const traj = fixture("swe-agent/pydicom__pydicom-1458.traj");
    const preds = fixture("swe-agent/all_preds.jsonl");
    const before = await cliImport([traj], bed.env, undefined, ["--generator", "gpt4"]);
    expect(before.batches[0]).toMatchObject({ status: "SUCCEEDED", created: 1 });
    const refused = await cliImport([preds], bed.env);
    expect(refused.code).toBe(3);
    const advice = refused.batches[0].errors[0].reason;
    expect(advice).toContain(
      'no task "pydicom__pydicom-1458" has been imported yet: import the dataset file that holds instance pydicom__pydicom-1458',
    );

    // following the advice: the instances (here through the upload page), then the same file again
    expect(await upload(fixture("swe-bench/swe-bench-dev-easy.json"))).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_INSTANCES",
    });
    const followed = await cliImport([preds], bed.env);
    expect(followed.code).toBe(0);
    expect(followed.batches[0]).toMatchObject({ status: "SUCCEEDED", created: 1, failed: 0 });

    const [trajectory] = await trajectoryOf("pydicom__pydicom-1458");
    expect(trajectory.taskId).not.toBeNull();
    const candidate = await bed.db.prisma.candidatePatch.findUniqueOrThrow({
      where: { id: trajectory.candidatePatchId! },
    });
    expect(candidate).toMatchObject({ generator: "gpt4", resolved: null, taskId: trajectory.taskId });
    // the submission as `git apply` takes it: without the blank line SWE-agent puts first
    expect(candidate.patch).toBe(trajectory.submission!.replace(/^(\r?\n)+/, ""));
    const again = await cliImport([traj], bed.env, undefined, ["--generator", "gpt4"]);
    expect(again.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 1 });
  });

  it("turns every Inspect tool call and tool result, errors included, into steps", async () => {
    const { batches } = await cliImport([real("inspect_log_tool_call_error.json")], bed.env);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "INSPECT_LOG", created: 1 });
    const [trajectory] = await bed.db.prisma.trajectory.findMany({
      where: { format: "INSPECT", importBatchId: batches[0].id },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectory.stepCount).toBe(11);
    expect(trajectory.steps[0]).toMatchObject({ action: "bash", observation: "...\ntool error (parsing): ..." });
    expect(trajectory.steps[10].observation).toContain(
      "tool error (output_limit): The tool output limit of 10 MiB was exceeded.",
    );
  });

  it("reads Inspect's native .eval zip, by the CLI and by upload", async () => {
    const cliRun = await cliImport([real("inspect_log_message_deduplication.eval")], bed.env);
    expect(cliRun.batches[0]).toMatchObject({ status: "SUCCEEDED", format: "INSPECT_LOG", created: 1 });
    const [trajectory] = await bed.db.prisma.trajectory.findMany({
      where: { externalId: "inspect:oNudNHL32se6mcUiF8ingo:0:1" },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectory).toMatchObject({ model: "hardcoded/hardcoded", stepCount: 6 });
    expect(trajectory.steps[0]).toMatchObject({
      action: 'bash({"cmd":"ls"})',
      observation: expect.stringContaining("bin\nboot"),
    });
    expect(trajectory.steps[5]).toMatchObject({ action: "done", observation: null });
    expect(await upload(real("inspect_log_message_deduplication.eval"))).toMatchObject({
      status: "SUCCEEDED",
      format: "INSPECT_LOG",
      unchanged: 1,
    });
  });

  it("imports OpenHands evaluation output with every event a step and its git_patch kept", async () => {
    const { batches } = await cliImport([real("openhands_multi_swe_bench_output.jsonl")], bed.env);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "OPENHANDS_TRAJECTORY", created: 3 });
    const [run] = await trajectoryOf("ponylang__ponyc-4595");
    expect(run).toMatchObject({
      model: "openai/openrouter-llama-4-maverick",
      externalId: "openhands:openai/openrouter-llama-4-maverick:ponylang__ponyc-4595",
    });
    // 49 events: the system prompt and the 23 observations that answer the action before them are not steps of their own
    expect(run.stepCount).toBe(49 - 1 - 23);
    expect(run.steps.map((s) => (s.metadata as { kind?: string }).kind)).toContain("recall");
    expect(run.submission).toMatch(/^diff --git a\/src\/libponyc\/ast\/parser.c/);
  });

  it("imports SWE-Gym's sampled OpenHands trajectories, by the CLI and by upload", async () => {
    const { batches } = await cliImport([real("swe-gym_openhands_sampled_trajectories.json")], bed.env);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "OPENHANDS_TRAJECTORY", created: 5 });
    const [run] = await trajectoryOf("python__mypy-15976");
    expect(run).toMatchObject({
      metadata: expect.objectContaining({
        resolved: true,
        runId: "gpt-4o-2024-08-06_maxiter_50_N_v2.1-no-hint-train-t0-run_1",
        sample: "python__mypy-15976_0",
      }),
    });
    expect(run.steps[0]).toMatchObject({
      action: 'str_replace_editor({"command":"view","path":"/workspace/python__mypy__1.6","view_range":[0,-1]})',
      observation: expect.stringContaining("ERROR:"),
    });
    expect(run.submission).toMatch(/^diff --git a\/mypy\/plugins\/attrs.py/);
    expect(await upload(real("swe-gym_openhands_sampled_trajectories.json"))).toMatchObject({
      status: "SUCCEEDED",
      unchanged: 5,
    });
  });

  it("reads predictions written as one object keyed by instance id, and names the missing task and how to import it", async () => {
    const { code, batches, stderr } = await cliImport([real("mini-swe-agent_preds.json")], bed.env);
    expect(code).toBe(3);
    expect(batches[0]).toMatchObject({ format: "SWE_BENCH_PREDICTIONS", failed: 1 });
    expect(batches[0].errors[0].reason).toBe(
      'no task "swe-agent__test-repo-1" has been imported yet: import the dataset file that holds instance swe-agent__test-repo-1 (its SWE-bench instances, e.g. `swe-curator import swe-bench-verified.jsonl`), then import this file again',
    );
    expect(stderr).toContain("swe-agent__test-repo-1");
  });

  it("reports a record that fails validation as one plain sentence with its line and field", async () => {
    // a real OpenHands output line, its instance id broken the way a bad export breaks it
    const lines = readFileSync(real("openhands_multi_swe_bench_output.jsonl"), "utf8").split("\n");
    const broken = JSON.parse(lines[1]);
    broken.instance_id = 4593;
    const file = path.join(bed.dir, "output.jsonl");
    writeFileSync(file, [lines[0], JSON.stringify(broken), lines[2]].join("\n") + "\n");
    const { code, batches, stderr } = await cliImport([file], bed.env);
    expect(code).toBe(1);
    expect(batches[0]).toMatchObject({
      status: "PARTIAL",
      failed: 1,
      errors: [
        { line: 2, reason: expect.stringContaining("instance_id must be text, not a number: this file was read as") },
      ],
    });
    expect(stderr).not.toMatch(/Invalid input|ZodError|\n\s+at /);
    // the same sentence in the upload's report, for the /imports page to show
    expect(await upload(file)).toMatchObject({
      status: "PARTIAL",
      failed: 1,
      errors: [
        { line: 2, reason: expect.stringContaining("instance_id must be text, not a number: this file was read as") },
      ],
    });
  });

  it("imports the OpenHands SDK's events.jsonl (an event a line) as one trajectory, and names a broken line", async () => {
    const file = path.join(bed.dir, "django__django-11099.events.jsonl");
    copyFileSync(fixture("openhands/sdk_events__goal.jsonl"), file);
    const { code, batches } = await cliImport([file], bed.env, undefined, ["--instance", "sdk-goal-run"]);
    expect(code).toBe(0);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format: "OPENHANDS_TRAJECTORY", created: 1, failed: 0 });
    const [trajectory] = await trajectoryOf("sdk-goal-run");
    expect(trajectory).toMatchObject({ format: "OPENHANDS", stepCount: 3 });
    expect(trajectory.steps[0].action).toContain('echo "SESSION_URL=${SESSION_URL}"');
    expect(trajectory.steps[0].observation).toContain("Cannot execute multiple commands at once");

    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = lines[2].slice(0, 40);
    const broken = path.join(bed.dir, "broken.events.jsonl");
    writeFileSync(broken, lines.join("\n"));
    const refused = await cliImport([broken], bed.env, undefined, ["--instance", "sdk-goal-broken"]);
    expect(refused.code).toBe(3);
    expect(refused.batches[0]).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/^line 3: the record is cut off .*fix or remove that line/),
    });
    expect(await trajectoryOf("sdk-goal-broken")).toHaveLength(0);
  });
});
