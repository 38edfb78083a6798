import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliImport } from "../helpers/swe-curator-cli";
import { importTestBed, uploadThroughApi } from "../helpers/imports";

// Every class of issue 9 through the entry point the CLI tests do not cover: the upload the
// /imports page sends (POST /api/v1/imports, imported by a worker), with the same real public
// files (test/fixtures/SOURCES.txt). Each of these failed before its fix. Where the upload
// comes first, the CLI follows with the same file and must find nothing to change.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const real = (name: string) => fixture("trajectories", name);

describe("real public files uploaded as the /imports page does", () => {
  const bed = importTestBed("real-upload-");

  const upload = (file: string) => uploadThroughApi(file, bed.token);
  const stepsOf = (instanceId: string) =>
    bed.db.prisma.trajectory.findFirstOrThrow({
      where: { metadata: { path: ["instanceId"], equals: instanceId } },
      include: { steps: { orderBy: { index: "asc" } } },
    });

  it("gives Multi-SWE-bench rows, whose issue text is only in resolved_issues' title and body, a problem statement (10b)", async () => {
    const file = fixture("swe-bench/multi-swe-bench_darkreader.jsonl");
    expect(await upload(file)).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_INSTANCES",
      created: 2,
      failed: 0,
    });
    const task = await bed.db.prisma.task.findUniqueOrThrow({
      where: { instanceId: "darkreader__darkreader-7241" },
      include: { environment: { include: { repository: true } } },
    });
    expect(task.problemStatement).toMatch(/^\[Bug\] Base64 padding in themes breaks the extension\n\n\S/);
    expect(task).toMatchObject({
      failToPass: ["tests/generators/utils/parse.tests.ts:Base64 in CSS", "tests/generators/utils/parse.tests.ts"],
      environment: {
        baseCommit: "991883df4d5910851130e3dc0e21fcbce604ea7d",
        repository: { owner: "darkreader", name: "darkreader" },
      },
    });
    expect(task.fixPatch).toMatch(/^diff --git a\/src\/generators\//);

    const again = await cliImport([file], bed.env);
    expect(again.code).toBe(0);
    expect(again.batches[0]).toMatchObject({ status: "SUCCEEDED", unchanged: 2 });
  });

  it("recognises a .traj past its first 256 KB (1) and a .traj with only `history` (2)", async () => {
    expect(await upload(real("swe-agent_marshmallow-code__marshmallow-1867.traj"))).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_AGENT_TRAJECTORY",
      created: 1,
    });
    expect(await stepsOf("marshmallow-code__marshmallow-1867")).toMatchObject({
      stepCount: 13,
      model: "replay",
      exitStatus: "submitted",
    });
    expect(await upload(real("swe-agent_function_calling_simple.traj"))).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_AGENT_TRAJECTORY",
      created: 1,
    });
    const demo = await stepsOf("swe-agent_function_calling_simple");
    expect(demo.steps.map((s) => s.action)).toEqual([
      "find_file missing_colon.py",
      'open "tests/missing_colon.py"',
      "edit 'def division(a: float, b: float) -> float' 'def division(a: float, b: float) -> float:'",
      "python tests/missing_colon.py",
      "submit",
    ]);
  });

  it("keeps every Inspect tool call and tool error as a step (5)", async () => {
    const batch = await upload(real("inspect_log_tool_call_error.json"));
    expect(batch).toMatchObject({ status: "SUCCEEDED", format: "INSPECT_LOG", created: 1 });
    const trajectory = await bed.db.prisma.trajectory.findFirstOrThrow({
      where: { importBatchId: batch.id },
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectory.stepCount).toBe(11);
    expect(trajectory.steps[10].observation).toContain("tool error (output_limit)");
  });

  it("makes a mini-swe-agent submission the task's candidate patch (3, 9) and reads OpenHands evaluation output (9)", async () => {
    expect(await upload(fixture("swe-bench/swe-bench-lite-test.json"))).toMatchObject({
      status: "SUCCEEDED",
      created: 5,
    });
    expect(await upload(real("mini-swe-agent_django__django-16255.traj.json"))).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_AGENT_TRAJECTORY",
      created: 1,
    });
    const run = await stepsOf("django__django-16255");
    expect(run).toMatchObject({ stepCount: 17, model: "google/gemini-3-pro-preview" });
    const candidate = await bed.db.prisma.candidatePatch.findUniqueOrThrow({ where: { id: run.candidatePatchId! } });
    expect(candidate).toMatchObject({ generator: "google/gemini-3-pro-preview", resolved: null, taskId: run.taskId });
    expect(candidate.patch).toMatch(/^diff --git a\/django\/contrib\/sitemaps\/__init__.py/);

    expect(await upload(real("openhands_multi_swe_bench_output.jsonl"))).toMatchObject({
      status: "SUCCEEDED",
      format: "OPENHANDS_TRAJECTORY",
      created: 3,
    });
    expect((await stepsOf("ponylang__ponyc-4595")).stepCount).toBe(25);
  });

  it("stores no empty candidate for a log without its prediction (7), and grades the log with it as SWE-bench does (10)", async () => {
    const golden = await upload(fixture("harness/django__django-15781.SWE-bench_Lite_golden.eval.log"));
    expect(golden.status).toBe("FAILED");
    expect(golden.errors[0].reason).toMatch(
      /the run carries no patch and no prediction of "SWE-bench_Lite_golden".*import the predictions/,
    );
    expect(await bed.db.prisma.candidatePatch.count({ where: { task: { instanceId: "django__django-15781" } } })).toBe(
      0,
    );

    expect(
      await upload(fixture("harness/django__django-15781.20240402_sweagent_gpt4.predictions.jsonl")),
    ).toMatchObject({ status: "SUCCEEDED", created: 1 });
    expect(await upload(fixture("harness/django__django-15781.20240402_sweagent_gpt4.eval.log"))).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_REPORT",
    });
    // SWE-bench's parse_log_django + get_eval_tests_report: 1 FAIL_TO_PASS test failed, 43 PASS_TO_PASS passed → not resolved
    const graded = await bed.db.prisma.validationRun.findFirstOrThrow({
      where: { candidatePatch: { generator: "20240402_sweagent_gpt4" } },
      include: { testResults: true, candidatePatch: true },
    });
    expect(graded.candidatePatch?.resolved).toBe(false);
    expect(graded.testResults.filter((t) => t.group === "FAIL_TO_PASS" && t.actual !== "PASSED")).toHaveLength(1);
    expect(graded.testResults.filter((t) => t.group === "PASS_TO_PASS" && t.actual === "PASSED")).toHaveLength(43);
  });

  it("reads predictions keyed by instance id and names the missing task and how to import it (10b, 6)", async () => {
    const batch = await upload(real("mini-swe-agent_preds.json"));
    expect(batch).toMatchObject({ status: "FAILED", format: "SWE_BENCH_PREDICTIONS", failed: 1 });
    expect(batch.errors[0].reason).toMatch(
      /^no task "swe-agent__test-repo-1" has been imported yet: import the dataset file that holds instance swe-agent__test-repo-1/,
    );
  });
});
