import { hasAny, type FormatDeclaration } from "../format";
import { importLogDocument, importReportDocument } from "./import";

const HARNESS_LOG_MARKERS = [
  ">>>>> Start Test Output",
  ">>>>> Applied Patch",
  ">>>>> All Tests Passed",
  ">>>>> Some Tests Failed",
  "OPENSWE_EXIT_CODE=",
  ">>>>> Test Exit Code",
  "Test Script:",
];

/**
 * A harness's per-instance report.json, or its test log. A report is small and one document,
 * wrapped in its instance id or not: it has no record importer, so a record of it is one document.
 */
export const sweBenchReport: FormatDeclaration = {
  format: "SWE_BENCH_REPORT",
  detect: {
    // a report.json wrapped in its instance id: { "<instance_id>": { resolved, tests_status, … } }
    document: ({ container, inner }) =>
      container === "object" && hasAny(inner, "resolved", "tests_status", "patch_successfully_applied"),
    record: (keys) => hasAny(keys, "tests_status", "patch_successfully_applied", "patch_is_None"),
    text: (text, fileName) =>
      HARNESS_LOG_MARKERS.some((marker) => text.includes(marker)) || /\.(log|txt)$/.test(fileName),
  },
  document: importReportDocument,
  text: (ctx) => importLogDocument(ctx),
};
