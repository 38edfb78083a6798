import { z } from "zod";
import { SweBenchInstanceSchema, mergeMetadata, toTaskRecord } from "../swe-bench-instances/map";
import type { Recipe, TaskRecord } from "../../records/task-record";

// OpenSWE (daVinci-Env) rows: SWE-bench fields plus end_commit and language on input,
// and — on output — the environment's `dockerfile` and `eval_script`, which become a real
// revision instead of a placeholder. Output rows often have empty FAIL_TO_PASS lists:
// OpenSWE grades by the eval script's exit code alone.

export const OpenSweRowSchema = SweBenchInstanceSchema.extend({
  dockerfile: z.string().min(1, "dockerfile is empty").optional(),
  eval_script: z.string().min(1, "eval_script is empty").optional(),
  end_commit: z.string().nullish(),
  language: z.string().nullish(),
  model_name_or_path: z.string().nullish(),
}).refine((row) => !!row.dockerfile === !!row.eval_script, {
  message: "an OpenSWE row needs both dockerfile and eval_script, or neither",
});

export function parseOpenSweRow(value: unknown): TaskRecord {
  const row = OpenSweRowSchema.parse(value);
  const { dockerfile, eval_script, model_name_or_path, ...rest } = row;
  const record = toTaskRecord(rest as z.infer<typeof SweBenchInstanceSchema>, "OPENSWE");
  const recipe: Recipe | null = dockerfile && eval_script ? { dockerfile, evalScript: eval_script } : null;
  return {
    ...record,
    environment: {
      ...record.environment,
      recipe,
      metadata: mergeMetadata(
        record.environment.metadata,
        model_name_or_path ? { recipeAuthor: model_name_or_path } : {},
      ),
    },
  };
}
