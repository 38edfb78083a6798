import { hasAny, type FormatDetector } from "../format-detector";

export const reviewerVerdictsDetector: FormatDetector = {
  format: "REVIEWER_VERDICTS",
  record: (keys) => keys.has("decision") && hasAny(keys, "reviewer_model", "reviewer", "instance_id"),
};
