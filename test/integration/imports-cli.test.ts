import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cli, cliInProcess, useCliWorkspace } from "../helpers/swe-curator-cli";

// The `swe-curator` command as a script would run it: piped output, exit codes. Each exit code (0 to 4)
// and both streams go through the real binary at least once; the checks of what a command does beyond
// that (more usage errors, export filters, status, validate) call it inside this process (cliInProcess:
// the same runCli and streams), which spares a two-process Node start per call.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);

describe("the swe-curator CLI", () => {
  const workspace = useCliWorkspace("cli-");

  it("imports files with one result line each on stdout, and exits with the worst file's code", async () => {
    const good = await cli(["import", fixture("swe-bench/swe-bench-lite-test.json")], workspace.env);
    expect(good.code).toBe(0);
    const result = await cli(
      ["import", fixture("swe-bench/swe-bench-lite-test.json"), fixture("swe-agent/all_preds.jsonl")],
      workspace.env,
    );
    expect(result.code).toBe(3);
    const lines = result.stdout.trim().split("\n");
    expect(good.stdout).toMatch(
      /swe-bench-lite-test\.json\tSUCCEEDED\tSWE_BENCH_INSTANCES\tcreated=5 updated=0 unchanged=0 failed=0\tbatch=\w+/,
    );
    expect(lines[0]).toMatch(
      /swe-bench-lite-test\.json\tSUCCEEDED\tSWE_BENCH_INSTANCES\tcreated=0 updated=0 unchanged=5 failed=0/,
    );
    // the predictions' task (pydicom-1458) is not imported: that record fails, so the file is partial
    expect(lines[1]).toMatch(
      /all_preds\.jsonl\tFAILED\tSWE_BENCH_PREDICTIONS\tcreated=0 updated=0 unchanged=0 failed=1/,
    );
    expect(result.stderr).toContain("line 1 (pydicom__pydicom-1458 (gpt4__swe-bench-dev-easy");
  });

  it("exits 1 on a partial import and lists each bad line on stderr", async () => {
    const file = path.join(workspace.dir, "mixed.jsonl");
    writeFileSync(
      file,
      '{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c1", "problem_statement": "x"}\n{"instance_id": "a__b-2", "repo": "ab"}\n',
    );
    const result = await cli(["import", "--json", file], workspace.env);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: "PARTIAL",
      created: 1,
      failed: 1,
      errors: [{ line: 2, reason: expect.stringMatching(/^repo: /) }],
    });
    expect(result.stderr).toMatch(/line 2 \(a__b-2\): repo: expected owner\/name/);
  });

  it("exits 3 for an unknown format and 2 for a bad command line", async () => {
    const file = path.join(workspace.dir, "notes.json");
    writeFileSync(file, '{"title": "meeting notes"}');
    const unknown = await cliInProcess(["import", file], workspace.env);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/Unrecognised file/);
    expect((await cli(["frobnicate"], workspace.env)).code).toBe(2);
    expect((await cliInProcess(["import"], workspace.env)).code).toBe(2);
    expect((await cliInProcess(["import", "--source", "NOPE", file], workspace.env)).code).toBe(2);
  });

  it("exits 4 when the database does not answer", async () => {
    const result = await cli(["status"], { DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:1/none" });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/Cannot reach the database/);
  });

  it("exports approved, validated tasks to stdout as JSONL, progress and what it excluded on stderr", async () => {
    await workspace.database.prisma.task.update({
      where: { instanceId: "django__django-15781" },
      data: { curationStatus: "APPROVED", automatedVerdict: "VALID" },
    });
    await workspace.database.prisma.task.update({
      where: { instanceId: "sympy__sympy-13031" },
      data: { curationStatus: "APPROVED" },
    });
    const result = await cli(["export"], workspace.env);
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.instance_id)).toEqual(["django__django-15781"]);
    expect(result.stderr).toContain("exported 1 tasks");
    expect(result.stderr).toContain("1 task excluded: 1 never validated");
    const query = await cliInProcess(
      [
        "export",
        "--query",
        "repository=sympy/sympy",
        "--include-unvalidated",
        "--test-lists",
        "json-string",
        "--no-provenance",
      ],
      workspace.env,
    );
    expect(JSON.parse(query.stdout)).toMatchObject({
      instance_id: "sympy__sympy-13031",
      FAIL_TO_PASS: '["test_sparse_matrix"]',
    });
  });

  it("shows the latest imports and one import's errors", async () => {
    const status = await cliInProcess(["status"], workspace.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/imports \(latest \d+\)/);
    expect(status.stdout).toContain("swe-bench-lite-test.json");
    const batch = await workspace.database.prisma.importBatch.findFirstOrThrow({ where: { status: "PARTIAL" } });
    const one = await cliInProcess(["status", batch.id], workspace.env);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/line 2 \(a__b-2\): repo:/);
  });

  it("queues a validation through the workers' use case", async () => {
    // the task runs SWE-bench's published image: refused in a sentence until its registry is allowed
    const refused = await cliInProcess(["validate", "--instance", "django__django-16255"], {
      ...workspace.env,
      IMAGE_REGISTRIES: undefined,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("IMAGE_REGISTRIES does not list");
    const result = await cliInProcess(["validate", "--instance", "django__django-16255"], {
      ...workspace.env,
      IMAGE_REGISTRIES: "docker.io",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^django__django-16255\tQUEUED\tgroup=\S+\truns=2$/m);
    const runs = await workspace.database.prisma.validationRun.findMany({
      where: { task: { instanceId: "django__django-16255" } },
    });
    expect(runs.map((r) => r.kind).sort()).toEqual(["NEGATIVE_CONTROL", "POSITIVE_CONTROL"]);
    expect((await cliInProcess(["validate", "--instance", "nope__nope-1"], workspace.env)).code).toBe(3);
  });
});
