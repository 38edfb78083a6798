import { appendFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { SKIP_REASONS_VARIABLE } from "./skip-report";

export { SKIP_REASONS_VARIABLE };

// A test file that cannot run here says why, once, where scripts/test.ts reads it: the run's
// summary lists every skipped test with its file's reason, and under REQUIRE_DOCKER a skip
// not on test/skip-allowed.json fails the run. Outside scripts/test.ts the reason is printed.

/** Records why the calling test file skips (each given reason that is a string); returns whether it skips. */
export function skipBecause(...reasons: Array<string | false | null | undefined>): boolean {
  const given = reasons.filter((reason): reason is string => typeof reason === "string" && reason.length > 0);
  if (!given.length) return false;
  const file = path.relative(process.cwd(), expect.getState().testPath ?? "unknown file");
  const reason = given.join("; ");
  console.warn(`[skip] ${file}: ${reason}`);
  const log = process.env[SKIP_REASONS_VARIABLE];
  if (log) appendFileSync(log, `${JSON.stringify({ file, reason })}\n`);
  return true;
}
