import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { importFile } from "../../lib/imports/import-file";

// Every format through importFile into a real Postgres, in the order a researcher would
// import them: instances first, then what hangs off them.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const PANDAS = "pandas-dev__pandas.95280573.pr_53652";
const GENERATOR = "gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1";

describe("importing each format", () => {
  let db: TestDatabase;
  let scratch: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    scratch = mkdtempSync(path.join(tmpdir(), "imports-formats-"));
    await importFile(db.prisma, fixture("swe-bench/swe-bench-dev-easy.json"));
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await db?.drop();
  });

  it("counts the duplicated instance in dev-easy once and keeps its extra fields", async () => {
    const batch = await db.prisma.importBatch.findFirstOrThrow({ where: { fileName: "swe-bench-dev-easy.json" } });
    expect(batch).toMatchObject({ created: 4, failed: 0, status: "SUCCEEDED" });
    expect(batch.created + batch.updated + batch.unchanged).toBe(5);
    const task = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "pydicom__pydicom-1458" } });
    expect(task.metadata).toMatchObject({ task_id: "pydicom__pydicom-1458" });
  });

  it("imports predictions as candidate patches, and refuses one for an unknown task with its line", async () => {
    const file = path.join(scratch, "preds.jsonl");
    const { readFileSync, writeFileSync } = await import("node:fs");
    writeFileSync(
      file,
      readFileSync(fixture("swe-agent/all_preds.jsonl"), "utf8").trim() +
        "\n" +
        JSON.stringify({ instance_id: "nope__nope-1", model_name_or_path: "m", model_patch: "diff --git a/x b/x\n" }) +
        "\n",
    );
    const batch = await importFile(db.prisma, file);
    expect(batch).toMatchObject({ format: "SWE_BENCH_PREDICTIONS", created: 1, failed: 1, status: "PARTIAL" });
    expect(batch.errors).toEqual([
      { line: 2, key: "nope__nope-1 (m)", reason: expect.stringContaining('no task "nope__nope-1"') },
    ]);
    const candidate = await db.prisma.candidatePatch.findFirstOrThrow({ where: { generator: GENERATOR } });
    expect(candidate.patch).toContain("required_elements.append('PixelRepresentation')");
  });

  it("links the SWE-agent trajectory to its task and the candidate patch it submitted", async () => {
    const batch = await importFile(db.prisma, fixture("swe-agent/pydicom__pydicom-1458.traj"));
    expect(batch).toMatchObject({ created: 1, failed: 0 });
    const trajectory = await db.prisma.trajectory.findFirstOrThrow({
      where: { format: "SWE_AGENT" },
      include: { task: true, candidatePatch: true },
    });
    expect(trajectory.task?.instanceId).toBe("pydicom__pydicom-1458");
    expect(trajectory.candidatePatch?.generator).toBe(GENERATOR);
  });

  it("imports reviewer verdicts linked to task and candidate, creating the candidate they carry", async () => {
    const batch = await importFile(db.prisma, fixture("reviewer/reviewer_verdicts.synthetic.jsonl"));
    expect(batch).toMatchObject({ format: "REVIEWER_VERDICTS", created: 2, failed: 0 });
    const reviews = await db.prisma.trajectory.findMany({
      where: { role: "REVIEWER" },
      include: { candidatePatch: true, steps: true },
      orderBy: { externalId: "asc" },
    });
    expect(reviews.map((r) => [r.decision, r.confidence, r.candidatePatch?.generator])).toEqual([
      ["APPROVE", 0.82, GENERATOR],
      ["REQUEST_CHANGES", 0.64, "hypothetical-generator-b"],
    ]);
    expect(reviews[0].diagnosis).toMatchObject({
      rootCause: expect.stringMatching(/^get_pixeldata required PixelRepresentation/),
    });
    expect(reviews[0]).toMatchObject({ stepCount: 2, tokensIn: 11520, costUsd: 0.0412 });
    expect(await importFile(db.prisma, fixture("reviewer/reviewer_verdicts.synthetic.jsonl"))).toMatchObject({
      created: 0,
      unchanged: 2,
    });
  });

  it("imports a harness report.json and its test_output.txt as a candidate run with test results", async () => {
    const row = {
      instance_id: PANDAS,
      repo: "swesmith/pandas-dev__pandas.95280573",
      base_commit: "pr_53652",
      patch: "",
      FAIL_TO_PASS: [
        "pandas/tests/indexing/test_datetime.py::TestDatetimeIndex::test_getitem_pyarrow_index[DataFrame]",
      ],
      image_name: "swesmith.x86_64.pandas-dev_1776_pandas.95280573",
    };
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(scratch, "smith.jsonl"), JSON.stringify(row) + "\n");
    expect(await importFile(db.prisma, path.join(scratch, "smith.jsonl"))).toMatchObject({ created: 1 });

    const folder = path.join(scratch, "run_evaluation", PANDAS);
    cpSync(
      fixture("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"),
      path.join(folder, "report.json"),
      { recursive: true },
    );
    cpSync(
      fixture("harness/test_output__swesmith_pandas-dev__pandas.95280573.pr_53652.txt"),
      path.join(folder, "test_output.txt"),
    );
    // the candidate comes from the run's patch.diff (synthetic here; SWE-smith's sample has none): an empty patch is no candidate
    writeFileSync(path.join(folder, "patch.diff"), "diff --git a/pandas/core/indexing.py b/pandas/core/indexing.py\n");
    const batch = await importFile(db.prisma, path.join(scratch, "run_evaluation"));
    expect(batch).toMatchObject({ created: 1, failed: 0, status: "SUCCEEDED" });
    const run = await db.prisma.validationRun.findFirstOrThrow({
      where: { task: { instanceId: PANDAS } },
      include: { testResults: true, candidatePatch: true },
    });
    expect(run).toMatchObject({ kind: "CANDIDATE", status: "SUCCEEDED", resolved: true });
    expect(run.candidatePatch?.generator).toBe("swesmith_gen__claude-3.7__t-0.00_p-1.00__c.2.00__exp9__ig_orig");
    expect(run.candidatePatch?.resolved).toBe(true);
    expect(run.testResults).toHaveLength(11);
    expect(run.log).toContain("11 passed in 0.10s");
    expect(await importFile(db.prisma, path.join(scratch, "run_evaluation"))).toMatchObject({
      created: 0,
      unchanged: 1,
    });
  });

  it("finds the instance of a lone report.json from its file name", async () => {
    const batch = await importFile(
      db.prisma,
      fixture("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"),
    );
    // same instance and generator, but without the log: the run is updated, not duplicated
    expect(batch).toMatchObject({ format: "SWE_BENCH_REPORT", updated: 1, failed: 0 });
    expect(await db.prisma.validationRun.count({ where: { task: { instanceId: PANDAS } } })).toBe(1);
  });

  it("imports a legacy eval.log as a run of the model it names", async () => {
    const row = {
      instance_id: "pytest-dev__pytest-5227",
      repo: "pytest-dev/pytest",
      base_commit: "2051e30b9b596e944524ccb787ed20f9f5be93e3",
      FAIL_TO_PASS: ["testing/logging/test_reporting.py::test_log_cli_enabled_disabled[True]"],
      PASS_TO_PASS: [],
    };
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(scratch, "pytest.jsonl"), JSON.stringify(row) + "\n");
    await importFile(db.prisma, path.join(scratch, "pytest.jsonl"));
    // the log carries no patch: its candidate is the imported prediction (synthetic patch)
    writeFileSync(
      path.join(scratch, "golden-preds.jsonl"),
      JSON.stringify({
        instance_id: "pytest-dev__pytest-5227",
        model_name_or_path: "SWE-bench_Lite_golden",
        model_patch: "diff --git a/src/_pytest/logging.py b/src/_pytest/logging.py\n",
      }) + "\n",
    );
    await importFile(db.prisma, path.join(scratch, "golden-preds.jsonl"));
    const batch = await importFile(
      db.prisma,
      fixture("harness/testlog_pytest__pytest-dev__pytest-5227.golden.eval.log"),
    );
    expect(batch).toMatchObject({ created: 1, failed: 0 });
    const run = await db.prisma.validationRun.findFirstOrThrow({
      where: { task: { instanceId: "pytest-dev__pytest-5227" } },
      include: { testResults: true, candidatePatch: true },
    });
    expect(run).toMatchObject({ resolved: true });
    expect(run.candidatePatch?.generator).toBe("SWE-bench_Lite_golden");
    expect(run.testResults).toEqual([expect.objectContaining({ group: "FAIL_TO_PASS", actual: "PASSED" })]);
  });

  it("imports an OpenSWE environment from a .zip, a .tar.gz and a JSONL row into one environment with a real recipe", async () => {
    const zip = await importFile(db.prisma, fixture("openswe/env__local--tinymed--0001.synthetic.zip"));
    expect(zip).toMatchObject({ format: "OPENSWE_ENVIRONMENT", created: 1, failed: 0 });
    const env = await db.prisma.environment.findUniqueOrThrow({
      where: { key: "local__tinymed@69be3918225b6863e88670af9a3da75a0a90ee1c" },
      include: { currentRevision: true, tasks: true },
    });
    expect(env.currentRevision?.dockerfile).toContain("FROM python:3.11-slim");
    expect(env.currentRevision?.reason).toMatch(/^imported from/);
    expect(Object.keys(env.contextFiles as object)).toContain("repo/tinymed/stats.py");
    expect(env.tasks[0]).toMatchObject({ instanceId: "local--tinymed--0001", source: "OPENSWE" });
    expect(await importFile(db.prisma, fixture("openswe/env__local--tinymed--0001.synthetic.tar.gz"))).toMatchObject({
      created: 0,
      unchanged: 1,
      failed: 0,
    });
    // the row's patches lack the folder files' final newline: the task is updated (and audited), the same recipe is no new revision
    expect(await importFile(db.prisma, fixture("openswe/openswe_output__tinymed.synthetic.jsonl"))).toMatchObject({
      updated: 1,
      failed: 0,
    });
    expect(await db.prisma.environmentRevision.count({ where: { environmentId: env.id } })).toBe(1);
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { entityType: "task", action: "import.update", entityId: env.tasks[0].id },
    });
    expect(Object.keys(audit.before as object)).toEqual(expect.arrayContaining(["fixPatch", "testPatch"]));
  });

  it("imports SWE-Flow steps as TDD tasks", async () => {
    const batch = await importFile(db.prisma, fixture("swe-flow/sweflow_steps__tinyqueue.synthetic.jsonl"));
    expect(batch).toMatchObject({ format: "SWE_FLOW_STEPS", created: 2 });
    const step = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "example__--__tinyqueue-dev-2" } });
    expect(step).toMatchObject({
      kind: "TDD_STEP",
      source: "SWE_FLOW",
      failToPass: ["tests/test_queue.py::test_len_counts_waiting_items"],
    });
  });

  it("imports an OpenHands event stream and an Inspect log as trajectories", async () => {
    expect(await importFile(db.prisma, fixture("openhands/openhands_events__basic_interactions.json"))).toMatchObject({
      format: "OPENHANDS_TRAJECTORY",
      created: 1,
    });
    const openhands = await db.prisma.trajectory.findFirstOrThrow({ where: { format: "OPENHANDS" } });
    expect(openhands).toMatchObject({ stepCount: 6, model: "gpt-4o-2024-08-06", tokensIn: 2473 });
    expect(await importFile(db.prisma, fixture("inspect/inspect_log__log_formats.json"))).toMatchObject({
      format: "INSPECT_LOG",
      created: 1,
    });
    const inspect = await db.prisma.trajectory.findFirstOrThrow({
      where: { format: "INSPECT" },
      include: { steps: true },
    });
    expect(inspect).toMatchObject({
      externalId: "inspect:BpiPFmbVcMCRUAXv8ovCTx:1:1",
      model: "ollama/llama3.1",
      tokensIn: 66,
      tokensOut: 2,
    });
    expect(inspect.steps[0].action).toBe("No");
  });
});
