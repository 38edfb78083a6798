import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliInProcess as cli, useCliWorkspace } from "../helpers/swe-curator-cli";

// Harness logs and reports imported through the CLI as a user runs it, with real public
// files (test/fixtures/SOURCES.txt): `resolved` is graded from the log's statuses, an
// empty patch never becomes a candidate, and the generator comes from the run. The command runs
// inside this process (the binary's process boundary is imports-cli.test.ts's).

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);

const PANDAS = "pandas-dev__pandas.95280573.pr_53652";

describe("harness results imported through the CLI", () => {
  const workspace = useCliWorkspace("harness-grading-");
  beforeAll(async () => {
    expect((await cli(["import", fixture("swe-bench/swe-bench-lite-test.json")], workspace.env)).code).toBe(0);
    // a task for SWE-smith's pandas run (synthetic row; its test lists are the real report's)
    const report = JSON.parse(
      readFileSync(fixture("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"), "utf8"),
    );
    const status = (report[PANDAS] ?? report).tests_status;
    const row = {
      instance_id: PANDAS,
      repo: "pandas-dev/pandas",
      base_commit: "95280573",
      problem_statement: "synthetic",
      FAIL_TO_PASS: [...status.FAIL_TO_PASS.success, ...status.FAIL_TO_PASS.failure],
      PASS_TO_PASS: [...status.PASS_TO_PASS.success, ...status.PASS_TO_PASS.failure],
    };
    writeFileSync(path.join(workspace.dir, "pandas-task.json"), JSON.stringify(row));
    expect((await cli(["import", path.join(workspace.dir, "pandas-task.json")], workspace.env)).code).toBe(0);
  });

  const candidates = (instanceId: string) =>
    workspace.database.prisma.candidatePatch.findMany({
      where: { task: { instanceId } },
      select: { generator: true, patch: true, resolved: true },
    });

  it("never stores a candidate with an empty patch: a log without its prediction is reported", async () => {
    const result = await cli(
      ["import", fixture("harness/django__django-15781.SWE-bench_Lite_golden.eval.log")],
      workspace.env,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /django__django-15781.*the run carries no patch and no prediction of "SWE-bench_Lite_golden".*import the predictions/,
    );
    expect(await candidates("django__django-15781")).toEqual([]);
  });

  it("grades an imported log from its statuses against FAIL_TO_PASS / PASS_TO_PASS as SWE-bench does", async () => {
    expect(
      (
        await cli(
          ["import", fixture("harness/django__django-15781.20240402_sweagent_gpt4.predictions.jsonl")],
          workspace.env,
        )
      ).code,
    ).toBe(0);
    const result = await cli(
      ["import", fixture("harness/django__django-15781.20240402_sweagent_gpt4.eval.log")],
      workspace.env,
    );
    expect(result.code).toBe(0);
    // SWE-bench's parse_log_django + get_eval_tests_report on this log: 1 F2P test failed, 43 P2P passed → RESOLVED_NO
    const [candidate] = await candidates("django__django-15781");
    expect(candidate).toMatchObject({ generator: "20240402_sweagent_gpt4", resolved: false });
    const run = await workspace.database.prisma.validationRun.findFirstOrThrow({
      where: { candidatePatch: { generator: "20240402_sweagent_gpt4" } },
      include: { testResults: true },
    });
    expect(run.testResults.filter((t) => t.group === "FAIL_TO_PASS" && t.actual !== "PASSED")).toHaveLength(1);
    expect(run.testResults.filter((t) => t.group === "PASS_TO_PASS" && t.actual === "PASSED")).toHaveLength(43);
  });

  it("takes a run folder's generator from the report or --generator, never from a folder named logs", async () => {
    const folder = path.join(workspace.dir, "logs", PANDAS);
    mkdirSync(folder, { recursive: true });
    copyFileSync(
      fixture("harness/test_output__swesmith_pandas-dev__pandas.95280573.pr_53652.txt"),
      path.join(folder, "test_output.txt"),
    );

    const unnamed = await cli(["import", path.join(workspace.dir, "logs")], workspace.env);
    expect(unnamed.code).toBe(3);
    expect(unnamed.stderr).toMatch(/cannot tell which model's run this is.*--generator/);
    expect(await candidates(PANDAS)).toEqual([]);

    copyFileSync(
      fixture("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"),
      path.join(folder, "report.json"),
    );
    writeFileSync(path.join(folder, "patch.diff"), "diff --git a/pandas/x.py b/pandas/x.py\n");
    expect((await cli(["import", path.join(workspace.dir, "logs")], workspace.env)).code).toBe(0);
    expect((await candidates(PANDAS)).map((c) => c.generator)).toEqual([
      "swesmith_gen__claude-3.7__t-0.00_p-1.00__c.2.00__exp9__ig_orig",
    ]);

    // a log alone, without its patch.diff (with one it is graded: harness-run-folders.test.ts)
    rmSync(path.join(folder, "report.json"));
    rmSync(path.join(folder, "patch.diff"));
    const named = await cli(["import", "--generator", "my-model", path.join(workspace.dir, "logs")], workspace.env);
    expect(named.code).toBe(3); // a log alone has no patch: reported, not stored as an empty candidate
    expect(named.stderr).toMatch(/no prediction of "my-model"/);
    expect((await candidates(PANDAS)).map((c) => c.generator)).not.toContain("logs");
  });
});
