import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// What scripts/test.ts says about skipped tests: each one with its file's reason (recorded by
// test/helpers/skips.ts), and which of them test/skip-allowed.json does not allow.

/** The variable scripts/test.ts sets to the file the test files append their reasons to. */
export const SKIP_REASONS_VARIABLE = "SWE_CURATOR_TEST_SKIP_REASONS";

export type SkippedTest = { file: string; name: string; reason: string };
export type AllowedSkip = { file: string; test?: string; reason: string };

type VitestReport = { testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[] };

const NO_REASON = "no reason recorded: the test skipped itself without calling skipBecause (test/helpers/skips.ts)";

/** Reads the reasons the test files recorded: one JSON line { file, reason } each. */
export function readSkipReasons(logFile: string): Map<string, string> {
  const reasons = new Map<string, Set<string>>();
  if (!existsSync(logFile)) return new Map();
  for (const line of readFileSync(logFile, "utf8").split("\n").filter(Boolean)) {
    const { file, reason } = JSON.parse(line) as { file: string; reason: string };
    reasons.set(file, (reasons.get(file) ?? new Set()).add(reason));
  }
  return new Map([...reasons].map(([file, set]) => [file, [...set].join("; ")]));
}

/** Every skipped (or todo) test of a vitest JSON report, with its file's reason. */
export function skippedTests(report: VitestReport, reasons: Map<string, string>, root: string): SkippedTest[] {
  return report.testResults.flatMap((file) => {
    const relative = path.relative(root, file.name);
    return file.assertionResults
      .filter((test) => test.status === "skipped" || test.status === "pending" || test.status === "todo")
      .map((test) => ({ file: relative, name: test.fullName, reason: reasons.get(relative) ?? NO_REASON }));
  });
}

/** The allow list; an entry without a reason, or not naming a file, is itself an error. */
export function readAllowedSkips(listFile: string): AllowedSkip[] {
  const entries = JSON.parse(readFileSync(listFile, "utf8")).allowed as AllowedSkip[];
  for (const [index, entry] of entries.entries()) {
    if (!entry.file || !entry.reason?.trim())
      throw new Error(
        `${listFile}: entry ${index + 1} needs a "file" and a "reason" saying why that skip is acceptable in CI`,
      );
  }
  return entries;
}

/** The skips no entry allows: an entry names a file, and optionally one test of it by its full name. */
export function disallowedSkips(skipped: SkippedTest[], allowed: AllowedSkip[]): SkippedTest[] {
  return skipped.filter(
    (test) =>
      !allowed.some((entry) => entry.file === test.file && (entry.test === undefined || entry.test === test.name)),
  );
}
