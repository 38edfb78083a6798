import type { RunKind } from "../db/client";
import { detectForcedExitCode } from "./detect-forced-exit-code";
import type { RunFlag } from "./legitimacy-flags";
import { lookupTest } from "./match-test-ids";
import { isPassing, type TestStatusMap } from "./test-status";

export type LegitimacyInput = {
  kind: RunKind;
  log: string;
  evalScript: string;
  markerExitCode: number | null;
  results: TestStatusMap;
  failToPass: string[];
  passToPass: string[];
};

const NOTHING_RAN = /^collected 0 items|no tests ran|^Ran 0 tests|tests finished: 0 passed, in/m;

/** The checks that decide whether a run's outcome can be believed at all. */
export function checkLegitimacy(input: LegitimacyInput): RunFlag[] {
  const flags = new Set<RunFlag>();
  if (input.markerExitCode === null) flags.add("MARKER_MISSING");
  if (input.results.size === 0 || (NOTHING_RAN.test(input.log) && input.results.size === 0))
    flags.add("NO_TESTS_COLLECTED");
  const statusOf = (id: string) => lookupTest(input.results, id);
  if (input.failToPass.some((id) => !statusOf(id))) flags.add("F2P_ABSENT_FROM_LOG");
  if (input.passToPass.some((id) => !statusOf(id))) flags.add("P2P_ABSENT_FROM_LOG");
  if (detectForcedExitCode(input.evalScript).length) flags.add("FORCED_EXIT_CODE");
  if (input.markerExitCode !== null && input.results.size > 0) {
    const statuses = [...input.results.values()];
    const anyBroken = statuses.some((status) => status === "FAILED" || status === "ERROR");
    // exit 0 with failures means the status was swallowed; non-zero with nothing failing
    // means the runner itself broke (SWE-bench v5's guard against spoofed results).
    if ((input.markerExitCode === 0 && anyBroken) || (input.markerExitCode !== 0 && !anyBroken))
      flags.add("EXIT_CODE_CONTRADICTS_TESTS");
  }
  if (input.kind === "NEGATIVE_CONTROL" && input.failToPass.some((id) => isPassing(statusOf(id))))
    flags.add("F2P_PASSED_ON_NEGATIVE");
  return [...flags];
}
