import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { cliInProcess as cli } from "../helpers/swe-curator-cli";

// Whole evaluation folders as the harnesses write them (test/fixtures/harness-runs, real
// SWE-smith run files, test/fixtures/SOURCES.txt): the folder is read by its layout and the
// summary says so, model and run come from the path, --generator wins, `resolved` is what
// the run's results file says, and a folder without report.json is graded from its log.
// The command runs inside this process (what it reads and prints is checked here; the binary's
// process boundary is imports-cli.test.ts's).

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures/harness-runs", ...parts);
const INSTANCES = [
  "pandas-dev__pandas.95280573.pr_53652",
  "pandas-dev__pandas.95280573.pr_53856",
  "pydantic__pydantic.acb0f10f.pr_8316",
];
const REPOS: Record<string, string> = { pandas: "pandas-dev/pandas", pydantic: "pydantic/pydantic" };

/** A task per instance, its test lists the real report's buckets (SWE-smith's rows hold exactly these). */
function taskRows(): string {
  return INSTANCES.map((id) => {
    const report = JSON.parse(readFileSync(fixture("swe-smith/run_evaluation", id, "report.json"), "utf8"));
    const status = report.tests_status;
    const tests = (bucket: { success: string[]; failure: string[] }) => [...bucket.success, ...bucket.failure];
    const repo = REPOS[id.split("-")[0].split("__")[0]];
    return JSON.stringify({
      instance_id: id,
      repo,
      base_commit: id.split(".")[1],
      problem_statement: "from SWE-smith's run",
      FAIL_TO_PASS: tests(status.FAIL_TO_PASS),
      PASS_TO_PASS: tests(status.PASS_TO_PASS),
    });
  }).join("\n");
}

describe("evaluation run folders as the harnesses write them", () => {
  let db: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  const officialResolved = new Set<string>(
    JSON.parse(readFileSync(fixture("swe-smith/run_evaluation/report.json"), "utf8")).ids_resolved,
  );

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
    dir = mkdtempSync(path.join(tmpdir(), "harness-runs-"));
    writeFileSync(path.join(dir, "tasks.jsonl"), taskRows() + "\n");
    expect((await cli(["import", path.join(dir, "tasks.jsonl")], env)).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  const candidates = () =>
    db.prisma.candidatePatch.findMany({
      select: { generator: true, resolved: true, task: { select: { instanceId: true } } },
      orderBy: [{ generator: "asc" }],
    });
  const latestBatch = () => db.prisma.importBatch.findFirstOrThrow({ orderBy: { startedAt: "desc" } });

  it("reads a SWE-bench run folder with two models whose names hold '/', each result under its model, graded from test_output.txt", async () => {
    const result = await cli(["import", fixture("two-models/logs/run_evaluation/nightly")], env);
    expect(result.stderr).toContain("read as a SWE-bench evaluation run: 1 run, 2 models, 3 instances");
    expect(result.code).toBe(0);
    const rows = (await candidates()).map((c) => [c.generator, c.task.instanceId, c.resolved]);
    // graded from the log alone (no report.json): the same verdicts as SWE-smith's results file
    expect(rows).toEqual([
      ["anthropic/claude-3-7-sonnet", "pandas-dev__pandas.95280573.pr_53652", true],
      ["anthropic/claude-3-7-sonnet", "pydantic__pydantic.acb0f10f.pr_8316", true],
      ["openai/gpt-4o-2024-08-06", "pandas-dev__pandas.95280573.pr_53652", true],
      ["openai/gpt-4o-2024-08-06", "pandas-dev__pandas.95280573.pr_53856", false],
    ]);
    for (const [, instanceId, resolved] of rows) expect(resolved).toBe(officialResolved.has(instanceId as string));
    const batch = await latestBatch();
    expect(batch.format).toBe("SWE_BENCH_REPORT");
    expect(batch.summary).toMatch(/^read as a SWE-bench evaluation run: 1 run, 2 models, 3 instances\.$/);
  });

  it("lets an explicit --generator win over the path, and says so once for the whole batch", async () => {
    const copy = path.join(dir, "explicit", "run_evaluation", "nightly");
    cpSync(fixture("two-models/logs/run_evaluation/nightly"), copy, { recursive: true });
    const result = await cli(["import", copy, "--generator", "my-agent/v2"], env);
    expect(result.code).toBe(0);
    const mine = (await candidates()).filter((c) => c.generator === "my-agent/v2");
    expect(mine).toHaveLength(3);
    const summary = (await latestBatch()).summary!;
    expect(summary.match(/The generator you gave \("my-agent\/v2"\) was used for every result/g)).toHaveLength(1);
  });

  it("grades a log that shows no test as ungradable: unresolved, flagged, with the reason", async () => {
    const id = INSTANCES[0];
    const folder = path.join(dir, "cut", "run_evaluation", "nightly", "acme__cut-model", id);
    cpSync(fixture("two-models/logs/run_evaluation/nightly/openai__gpt-4o-2024-08-06", id), folder, {
      recursive: true,
    });
    // the real log, cut before its tests ran (as when a container dies during setup)
    const log = readFileSync(path.join(folder, "test_output.txt"), "utf8");
    writeFileSync(path.join(folder, "test_output.txt"), log.slice(0, log.indexOf("Start Test Output")));
    expect((await cli(["import", path.join(dir, "cut", "run_evaluation")], env)).code).toBe(0);
    const run = await db.prisma.validationRun.findFirstOrThrow({
      where: { candidatePatch: { generator: "acme/cut-model" } },
    });
    expect(run.resolved).toBe(false);
    expect(run.flags).toContain("UNGRADABLE");
    expect(run.errorMessage).toMatch(/^Ungradable: .+; counted unresolved/);
  });

  it("sets resolved to the run's results file (ids_resolved) on SWE-smith's real run folder", async () => {
    const result = await cli(["import", fixture("swe-smith/run_evaluation")], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "read as a SWE-bench evaluation run: 1 run, 3 instances (resolved as its results file report.json says)",
    );
    const runs = await db.prisma.validationRun.findMany({
      where: { candidatePatch: { generator: { startsWith: "swesmith_gen" } } },
      select: { resolved: true, flags: true, task: { select: { instanceId: true } } },
    });
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      expect(run.resolved).toBe(officialResolved.has(run.task.instanceId));
      expect(run.flags).not.toContain("GRADE_DIFFERS_FROM_RESULTS_FILE");
    }
  });

  it("follows the results file when it disagrees with the tests, and says so on the run", async () => {
    const copy = path.join(dir, "disagree", "run_evaluation");
    cpSync(fixture("swe-smith/run_evaluation"), copy, { recursive: true });
    const results = JSON.parse(readFileSync(path.join(copy, "report.json"), "utf8"));
    const unresolved = INSTANCES[1];
    results.ids_resolved.push(unresolved); // an edited copy: the real file says unresolved, as the tests do
    results.ids_unresolved = results.ids_unresolved.filter((id: string) => id !== unresolved);
    writeFileSync(path.join(copy, "report.json"), JSON.stringify(results));
    expect((await cli(["import", copy], env)).code).toBe(0);
    const run = await db.prisma.validationRun.findFirstOrThrow({
      where: { task: { instanceId: unresolved }, candidatePatch: { generator: { startsWith: "swesmith_gen" } } },
    });
    expect(run).toMatchObject({ resolved: true, flags: expect.arrayContaining(["GRADE_DIFFERS_FROM_RESULTS_FILE"]) });
    expect(run.errorMessage).toMatch(
      /as the run's results file report.json says; graded from the tests, it would be false/,
    );
  });

  it("keeps reading SWE-bench 1.x log folders (<instance_id>.<model>.eval.log side by side), each log under the model it names", async () => {
    const legacy = path.join(import.meta.dirname, "../fixtures/harness");
    expect((await cli(["import", path.join(legacy, "../swe-bench/swe-bench-lite-test.json")], env)).code).toBe(0);
    expect(
      (await cli(["import", path.join(legacy, "django__django-15781.20240402_sweagent_gpt4.predictions.jsonl")], env))
        .code,
    ).toBe(0);
    const folder = path.join(dir, "eval_logs");
    for (const name of [
      "django__django-15781.20240402_sweagent_gpt4.eval.log",
      "django__django-15781.SWE-bench_Lite_golden.eval.log",
    ])
      cpSync(path.join(legacy, name), path.join(folder, name));
    const result = await cli(["import", folder], env);
    expect(result.stderr).toContain("read as SWE-bench 1.x evaluation logs: 2 logs, 2 models");
    // the golden run's log carries no patch and no prediction of it was imported: reported, not an empty candidate
    expect(result.code).toBe(1);
    const django = (await candidates()).filter((c) => c.task.instanceId === "django__django-15781");
    expect(django.map((c) => [c.generator, c.resolved])).toEqual([["20240402_sweagent_gpt4", false]]);
  });

  it("says an OpenSWE environment folder is read as one", async () => {
    const result = await cli(
      ["import", path.join(import.meta.dirname, "../fixtures/openswe/env__local--tinymed--0001")],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("read as OpenSWE environment folders: 1 environment");
    expect((await latestBatch()).format).toBe("OPENSWE_ENVIRONMENT");
  });

  it("attaches a SWE-smith validation run's gold-patch outcomes to the task as its positive control, and names the instances to import first", async () => {
    const root = path.join(dir, "validation/run_validation/smith-run-1");
    const known = "pandas-dev__pandas.95280573.pr_53652";
    cpSync(fixture("swe-smith/run_validation", known), path.join(root, known), { recursive: true });
    // the same instance's report, edited: one of its FAIL_TO_PASS tests now fails with the fix
    const report = JSON.parse(readFileSync(fixture("swe-smith/run_validation", known, "report.json"), "utf8"));
    const broken = report.FAIL_TO_PASS[0];
    cpSync(path.join(root, known), path.join(root, "acme__widgets.0000aaaa.pr_1"), { recursive: true });
    const first = await cli(["import", root], env);
    expect(first.stderr).toContain("read as a SWE-smith validation run: 2 instances");

    const gold = () =>
      db.prisma.validationRun.findMany({
        where: { kind: "POSITIVE_CONTROL", task: { instanceId: known } },
        include: { testResults: true },
      });
    const [run] = await gold();
    const task = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: known } });
    expect(run.testResults).toHaveLength(task.failToPass.length + task.passToPass.length);
    const passedByGold = new Set([...report.FAIL_TO_PASS, ...report.PASS_TO_PASS]);
    for (const result of run.testResults)
      expect(result.actual).toBe(passedByGold.has(result.testId) ? "PASSED" : "MISSING");
    expect(run.testResults.find((r) => r.testId === broken)).toMatchObject({ group: "FAIL_TO_PASS", actual: "PASSED" });
    expect(run.log).toContain(broken.split("::")[0]);
    const batch = await latestBatch();
    expect(batch).toMatchObject({ format: "SWE_BENCH_REPORT", created: 1, failed: 1 });
    expect(batch.errors).toEqual([
      expect.objectContaining({
        key: expect.stringContaining("acme__widgets.0000aaaa.pr_1"),
        reason: expect.stringContaining(
          'no task "acme__widgets.0000aaaa.pr_1" has been imported yet: import the SWE-smith task instances',
        ),
      }),
    ]);

    // the same folder again changes nothing; a report where the fix breaks a test marks the control failed
    await cli(["import", root], env);
    expect(await latestBatch()).toMatchObject({ unchanged: 1, created: 0, updated: 0 });
    writeFileSync(
      path.join(root, known, "report.json"),
      JSON.stringify({ ...report, FAIL_TO_PASS: report.FAIL_TO_PASS.slice(1), FAIL_TO_FAIL: [broken] }),
    );
    await cli(["import", root], env);
    expect(await latestBatch()).toMatchObject({ updated: 1 });
    const [again] = await gold();
    expect(again).toMatchObject({
      id: run.id,
      resolved: false,
      failureClass: "POSITIVE_CONTROL_FAILED",
      errorMessage: expect.stringContaining(broken),
    });
    expect(again.testResults.find((r) => r.testId === broken)).toMatchObject({ actual: "FAILED" });
  });

  it("never reads a SWE-smith validation folder as an OpenSWE environment", async () => {
    const result = await cli(["import", fixture("swe-smith/run_validation")], env);
    expect(result.stderr).toContain("read as a SWE-smith validation run: 1 instance");
    const batch = await latestBatch();
    expect(batch.format).not.toBe("OPENSWE_ENVIRONMENT");
  });
});
