import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gradeTests, parseHarnessLog } from "@/lib/validation/grade-swe-bench";
import { logParserForRepo } from "@/lib/validation/parsers/log-parsers";

// The parity corpus (test/fixtures/logs, sources in test/fixtures/SOURCES.txt): real
// evaluation logs and, beside each, the statuses and grading SWE-bench's own code gives
// for it (expected/*.json, written by regenerate-expected.py from SWE-bench's source).

const folder = path.join(import.meta.dirname, "../../fixtures/logs");
type Entry = {
  file: string;
  repo: string;
  instanceId: string;
  parser?: string;
  failToPass?: string[];
  passToPass?: string[];
};
type Expected = {
  parser: string;
  statuses: Record<string, string>;
  found?: boolean;
  resolved?: boolean;
  tests_status?: Record<"FAIL_TO_PASS" | "PASS_TO_PASS", { success: string[]; failure: string[] }>;
};

const manifest: Entry[] = JSON.parse(readFileSync(path.join(folder, "manifest.json"), "utf8"));
const expectedOf = (entry: Entry): Expected =>
  JSON.parse(readFileSync(path.join(folder, "expected", `${entry.file}.json`), "utf8"));
const parse = (entry: Entry) =>
  parseHarnessLog(readFileSync(path.join(folder, entry.file), "utf8"), { repo: entry.repo, parser: entry.parser });

/** Agreement per test id: an id counts when both sides have it with the same status. */
function agreement(ours: Map<string, string>, theirs: Record<string, string>) {
  const ids = new Set([...ours.keys(), ...Object.keys(theirs)]);
  const agreed = [...ids].filter((id) => ours.get(id) === theirs[id]).length;
  return { agreed, total: ids.size };
}

describe("parity with SWE-bench's log parsers and grading", () => {
  it("holds at least 30 real logs from at least 8 repositories", () => {
    expect(manifest.length).toBeGreaterThanOrEqual(30);
    expect(new Set(manifest.map((e) => e.repo)).size).toBeGreaterThanOrEqual(8);
    const parsers = new Set(manifest.map((e) => expectedOf(e).parser));
    for (const name of [
      "parse_log_pytest",
      "parse_log_pytest_options",
      "parse_log_pytest_v2",
      "parse_log_django",
      "parse_log_sympy",
      "parse_log_matplotlib",
      "parse_log_seaborn",
    ])
      expect(parsers).toContain(name);
  });

  it.each(manifest.map((entry) => [entry.file, entry] as const))(
    "%s: the same status for every test id",
    (_file, entry) => {
      const expected = expectedOf(entry);
      expect(`parse_log_${entry.parser ?? logParserForRepo(entry.repo)}`).toBe(expected.parser);
      const ours = parse(entry).statuses;
      expect(Object.fromEntries(ours)).toEqual(expected.statuses);
    },
  );

  it.each(manifest.filter((e) => e.failToPass).map((entry) => [entry.file, entry] as const))(
    "%s: the same FAIL_TO_PASS / PASS_TO_PASS report and resolved",
    (_file, entry) => {
      const expected = expectedOf(entry);
      const parsed = parse(entry);
      expect(parsed.evaluated).toBe(expected.found);
      const grade = gradeTests(parsed.statuses, entry.failToPass!, entry.passToPass ?? [], parsed.evaluated);
      expect(grade.tests_status).toEqual(expected.tests_status);
      expect(grade.resolved).toBe(expected.resolved);
    },
  );

  it("agrees on 100 % of test ids per parser", () => {
    const perParser = new Map<string, { agreed: number; total: number }>();
    for (const entry of manifest) {
      const expected = expectedOf(entry);
      const { agreed, total } = agreement(parse(entry).statuses, expected.statuses);
      const sum = perParser.get(expected.parser) ?? { agreed: 0, total: 0 };
      perParser.set(expected.parser, { agreed: sum.agreed + agreed, total: sum.total + total });
    }
    const ratios = Object.fromEntries([...perParser].map(([name, { agreed, total }]) => [name, `${agreed}/${total}`]));
    console.log("agreement per parser:", ratios);
    for (const { agreed, total } of perParser.values()) expect(agreed).toBe(total);
  });
});
