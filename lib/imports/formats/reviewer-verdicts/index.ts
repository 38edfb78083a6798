import { hasAny, type FormatDeclaration } from "../format";
import { reviewerVerdictsImporter } from "./import";

/** Reviewer agents' verdicts on candidate patches (our schema, lib/imports/README.md). */
export const reviewerVerdicts: FormatDeclaration = {
  format: "REVIEWER_VERDICTS",
  detect: { record: (keys) => keys.has("decision") && hasAny(keys, "reviewer_model", "reviewer", "instance_id") },
  records: () => reviewerVerdictsImporter,
};
