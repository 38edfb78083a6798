import type { TestStatus, TestStatusMap } from "./test-status";

/**
 * The status of a FAIL_TO_PASS / PASS_TO_PASS id in parsed results. Ids are opaque and
 * matched exactly, except pytest ids cut off mid-parameter (`test_x[log(photon`, seen in
 * SWE-bench Verified) which match by prefix, as SWE-bench's grader does.
 */
export function lookupTest(results: TestStatusMap, id: string): TestStatus | undefined {
  const exact = results.get(id);
  if (exact) return exact;
  const open = id.lastIndexOf("[");
  if (open < 0 || id.indexOf("]", open) >= 0) return undefined;
  for (const [parsed, status] of results) if (parsed.startsWith(id)) return status;
  return undefined;
}
