import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { disallowedSkips, readAllowedSkips, readSkipReasons, skippedTests } from "../helpers/skip-report";

// scripts/test.ts lists every skipped test with its reason, and in CI fails on a skip the
// allow list does not name.

const dir = mkdtempSync(path.join(tmpdir(), "skip-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

const report = {
  testResults: [
    {
      name: "/repo/test/integration/a.test.ts",
      assertionResults: [
        { fullName: "a suite runs", status: "passed" },
        { fullName: "a suite needs root", status: "skipped" },
      ],
    },
    { name: "/repo/test/integration/b.test.ts", assertionResults: [{ fullName: "b later", status: "todo" }] },
  ],
};

describe("the skip report", () => {
  it("gives each skipped test its file's recorded reasons, and says when a file recorded none", () => {
    const log = write(
      "reasons.jsonl",
      [
        { file: "test/integration/a.test.ts", reason: "not root" },
        { file: "test/integration/a.test.ts", reason: "no dockerd" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    expect(skippedTests(report, readSkipReasons(log), "/repo")).toEqual([
      { file: "test/integration/a.test.ts", name: "a suite needs root", reason: "not root; no dockerd" },
      { file: "test/integration/b.test.ts", name: "b later", reason: expect.stringContaining("no reason recorded") },
    ]);
  });

  it("lets through only the skips the allow list names, by file or by one test of it", () => {
    const skipped = skippedTests(report, new Map(), "/repo");
    expect(disallowedSkips(skipped, [])).toHaveLength(2);
    expect(
      disallowedSkips(skipped, [{ file: "test/integration/b.test.ts", reason: "why" }]).map((t) => t.name),
    ).toEqual(["a suite needs root"]);
    expect(
      disallowedSkips(skipped, [{ file: "test/integration/a.test.ts", test: "another test", reason: "why" }]),
    ).toHaveLength(2);
  });

  it("refuses an allow-list entry without a reason, and reads the repository's list", () => {
    expect(() =>
      readAllowedSkips(write("bad.json", JSON.stringify({ allowed: [{ file: "test/x.test.ts", reason: " " }] }))),
    ).toThrow(/entry 1 needs a "file" and a "reason"/);
    for (const entry of readAllowedSkips(path.join(import.meta.dirname, "../skip-allowed.json")))
      expect(entry.reason.length).toBeGreaterThan(20);
  });
});
