import { hasAny, type FormatDeclaration } from "../format";
import { openSweRowsImporter } from "./import";

/** OpenSWE output rows: a task with its real recipe (environment folders are read by their layout, folder-layout.ts). */
export const openSweEnvironment: FormatDeclaration = {
  format: "OPENSWE_ENVIRONMENT",
  detect: { record: (keys) => keys.has("instance_id") && hasAny(keys, "dockerfile", "eval_script", "end_commit") },
  records: () => openSweRowsImporter,
};
