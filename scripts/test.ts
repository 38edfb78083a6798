// `npm test`: unit, then integration (real Postgres, real Docker), then e2e (real Chromium
// against a production build), one vitest run each so the heavy stages do not compete for
// the CPU. Lists every skipped test with its reason; under REQUIRE_DOCKER (CI) a skip that
// test/skip-allowed.json does not allow fails the run. Ends with one plain summary line that
// any CI can read.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { dockerRequired } from "../test/helpers/docker-required";
import {
  disallowedSkips,
  readAllowedSkips,
  readSkipReasons,
  SKIP_REASONS_VARIABLE,
  skippedTests,
  type SkippedTest,
} from "../test/helpers/skip-report";

const bin = (pkg: string, file: string) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file);
const VITEST = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const requested = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const projects = requested.length ? requested : ["unit", "integration", "e2e"];
const reportDir = mkdtempSync(path.join(tmpdir(), "swe-curator-test-"));
const skipReasonsLog = path.join(reportDir, "skip-reasons.jsonl");
const ALLOWED_SKIPS = path.join(import.meta.dirname, "../test/skip-allowed.json");
const ROOT = path.resolve(import.meta.dirname, "..");
const skipped: SkippedTest[] = [];

type Totals = { passed: number; failed: number; skipped: number; suitesFailed: number };
const totals: Totals = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
let anyRunFailed = false;

// Static checks first: a type error or a lint error fails the run like a failing test.
const STATIC_CHECKS: [string, string[]][] = [
  ["typecheck (tsc --noEmit)", [bin("typescript", "bin/tsc"), "--noEmit", "-p", "."]],
  ["lint (eslint)", [bin("eslint", "bin/eslint.js"), "."]],
  ["formatting (prettier --check)", [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level=warn", "."]],
];
if (!requested.length) {
  for (const [name, args] of STATIC_CHECKS) {
    console.log(`\n── ${name} ──`);
    const check = spawnSync(process.execPath, args, { stdio: "inherit", env: process.env });
    if (check.status === 0) {
      totals.passed++;
      console.log(`${name}: clean`);
    } else {
      totals.failed++;
      anyRunFailed = true;
    }
  }
}

for (const project of projects) {
  const report = path.join(reportDir, `${project}.json`);
  console.log(`\n── ${project} tests ──`);
  const startedAt = Date.now();
  const run = spawnSync(
    process.execPath,
    [VITEST, "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    {
      stdio: "inherit",
      env: { ...process.env, [SKIP_REASONS_VARIABLE]: skipReasonsLog },
    },
  );
  if (run.status !== 0) anyRunFailed = true;
  // how long each stage took, for the CI log (reported, never judged)
  console.log(`[test] ${project}: ${Math.round((Date.now() - startedAt) / 1000)} s`);
  if (!existsSync(report)) {
    console.error(`[test] ${project}: vitest wrote no report (exit ${run.status})`);
    totals.suitesFailed++;
    continue;
  }
  const result = JSON.parse(readFileSync(report, "utf8"));
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests + result.numTodoTests;
  totals.suitesFailed += result.numFailedTestSuites;
  skipped.push(...skippedTests(result, readSkipReasons(skipReasonsLog), ROOT));
}
rmSync(reportDir, { recursive: true, force: true });

// skips are loud: each one with its reason; in CI one the allow list does not name is a failure
if (skipped.length) {
  console.log(`\n── ${skipped.length} skipped ──`);
  for (const test of skipped) console.log(`skipped: ${test.file} › ${test.name}\n  why: ${test.reason}`);
}
if (dockerRequired()) {
  const refused = disallowedSkips(skipped, readAllowedSkips(ALLOWED_SKIPS));
  if (refused.length) {
    console.error(
      `\n[test] ${refused.length} tests skipped under REQUIRE_DOCKER/CI that test/skip-allowed.json does not allow (make them run, or add them with a reason):`,
    );
    for (const test of refused) console.error(`  ${test.file} › ${test.name}`);
    totals.failed += refused.length;
    anyRunFailed = true;
  }
}

// a run can fail with no failing test (a file that does not load, a crash): count it, never report 0 failed
const runFailedWithoutTests = totals.failed === 0 && (anyRunFailed || totals.suitesFailed > 0);
const failed = runFailedWithoutTests ? Math.max(1, totals.suitesFailed) : totals.failed;
console.log(`\nchecks: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`);
process.exit(failed > 0 || anyRunFailed ? 1 : 0);
