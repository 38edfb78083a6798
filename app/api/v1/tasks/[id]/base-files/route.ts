import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { baseFileOfTask } from "@/lib/tasks/task-base-files";
import { IdParams } from "@/lib/http/api-schemas";

const BaseFileQuery = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      "a path the task's patches change, relative to the repository (or ending with such a path, as a trajectory names it)",
    ),
});
const BaseFileSchema = z
  .union([
    z.object({
      path: z.string(),
      stored: z.literal(true),
      content: z.string(),
      sha256: z.string(),
      size: z.number().int(),
    }),
    z.object({ path: z.string(), stored: z.literal(false), reason: z.string() }),
  ])
  .meta({ id: "BaseFile" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary:
      "One file of the task's repository at the base commit, as its environment's image has it (or why it is not stored)",
    params: IdParams,
    query: BaseFileQuery,
    response: BaseFileSchema,
  },
  ({ db, params, query }) => baseFileOfTask(db, params.id, query.path),
);
