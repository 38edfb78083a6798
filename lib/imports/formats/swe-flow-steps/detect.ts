import { hasAny, type FormatDetector } from "../format-detector";

export const sweFlowStepsDetector: FormatDetector = {
  format: "SWE_FLOW_STEPS",
  record: (keys) => hasAny(keys, "fail_to_pass", "reference_commit", "requirement", "newFuncNodes", "skeleton"),
};
