import { hasAny, type FormatDeclaration } from "../format";
import { sweFlowStepsImporter } from "./import";

/** SWE-Flow's dataset.jsonl: a TDD step per line. */
export const sweFlowSteps: FormatDeclaration = {
  format: "SWE_FLOW_STEPS",
  detect: {
    record: (keys) => hasAny(keys, "fail_to_pass", "reference_commit", "requirement", "newFuncNodes", "skeleton"),
  },
  records: () => sweFlowStepsImporter,
};
