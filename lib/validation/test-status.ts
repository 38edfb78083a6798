import type { TestOutcome } from "../db/client";

/** What a log parser reports for one test (SWE-bench's TestStatus). */
export type TestStatus = "PASSED" | "FAILED" | "ERROR" | "SKIPPED" | "XFAIL";

/** Parsed results: test id → status, in the order first seen. */
export type TestStatusMap = Map<string, TestStatus>;

/** SWE-bench grading counts an expected failure as a pass. */
export function statusToOutcome(status: TestStatus | undefined): TestOutcome {
  if (!status) return "MISSING";
  if (status === "XFAIL") return "PASSED";
  return status;
}

export const isPassing = (status: TestStatus | undefined) => status === "PASSED" || status === "XFAIL";

/** Strips ANSI colour codes and carriage returns that some runners emit even without a TTY. */
export function cleanLogLine(line: string): string {
  return line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").replace(/\r$/, "");
}

export function logLines(log: string): string[] {
  return log.split("\n").map(cleanLogLine);
}
