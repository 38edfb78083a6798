import { hasAny, type FormatDetector } from "../format-detector";

export const sweBenchReportDetector: FormatDetector = {
  format: "SWE_BENCH_REPORT",
  record: (keys) => hasAny(keys, "tests_status", "patch_successfully_applied", "patch_is_None"),
  // a report.json wrapped in its instance id: { "<instance_id>": { resolved, tests_status, … } }
  document: ({ inner }) => hasAny(inner, "resolved", "tests_status", "patch_successfully_applied"),
};

const HARNESS_LOG_MARKERS = [
  ">>>>> Start Test Output",
  ">>>>> Applied Patch",
  ">>>>> All Tests Passed",
  ">>>>> Some Tests Failed",
  "OPENSWE_EXIT_CODE=",
  ">>>>> Test Exit Code",
  "Test Script:",
];

/** A harness's plain-text test log (SWE-bench's markers, or OpenSWE's exit code line). */
export const isHarnessLog = (text: string) => HARNESS_LOG_MARKERS.some((marker) => text.includes(marker));
