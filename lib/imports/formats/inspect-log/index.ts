import { hasAny, type FormatDeclaration } from "../format";
import { EVAL_HEADERS, importInspectLog, isSampleMember } from "./import";

/** Inspect AI's native log: a zip of header.json, samples/<id>_epoch_<n>.json and a _journal. */
const isInspectEvalMember = (name: string) => EVAL_HEADERS.includes(name) || isSampleMember(name);

/** An Inspect AI log, as JSON or as its native .eval zip: a trajectory per sample. */
export const inspectLog: FormatDeclaration = {
  format: "INSPECT_LOG",
  detect: {
    zip: (memberNames, fileName) => fileName.endsWith(".eval") || memberNames.some(isInspectEvalMember),
    document: ({ container, top }) =>
      container === "object" && top.has("eval") && hasAny(top, "samples", "plan", "results", "stats"),
  },
  document: importInspectLog,
};
