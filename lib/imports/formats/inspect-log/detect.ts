import { hasAny, type FormatDetector } from "../format-detector";

export const inspectLogDetector: FormatDetector = {
  format: "INSPECT_LOG",
  document: ({ top }) => top.has("eval") && hasAny(top, "samples", "plan", "results", "stats"),
};

/** Inspect AI's native log: a zip of header.json, samples/<id>_epoch_<n>.json and a _journal. */
export const isInspectEvalMember = (name: string) =>
  name === "header.json" || name === "_journal/start.json" || /^samples\/[^/]+\.json$/.test(name);
