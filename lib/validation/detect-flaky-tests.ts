import type { RunKind } from "../db/client";

export type AttemptOutcome = {
  kind: RunKind;
  /** did this attempt do what its kind requires */
  behaved: boolean;
  /** test id → passed? for the tests that matter (FAIL_TO_PASS, PASS_TO_PASS) */
  passed: Map<string, boolean>;
};

/**
 * Tests whose outcome differs between repeated attempts of the same kind. A kind whose
 * attempts disagree on the whole (one behaves, another not) with no single test to blame
 * is reported as "(whole run)".
 */
export function detectFlakyTests(attempts: AttemptOutcome[]): string[] {
  const flaky = new Set<string>();
  const byKind = new Map<RunKind, AttemptOutcome[]>();
  for (const attempt of attempts) byKind.set(attempt.kind, [...(byKind.get(attempt.kind) ?? []), attempt]);
  for (const group of byKind.values()) {
    if (group.length < 2) continue;
    const ids = new Set(group.flatMap((attempt) => [...attempt.passed.keys()]));
    for (const id of ids) {
      const seen = new Set(group.map((attempt) => attempt.passed.get(id) ?? false));
      if (seen.size > 1) flaky.add(id);
    }
    if (new Set(group.map((attempt) => attempt.behaved)).size > 1 && flaky.size === 0) flaky.add("(whole run)");
  }
  return [...flaky];
}
