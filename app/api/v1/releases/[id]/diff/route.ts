import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { diffReleases } from "@/lib/releases/diff-releases";
import { IdParams, ReleaseDiffSchema } from "@/lib/http/api-schemas";

const DiffQuerySchema = z.object({
  from: z.string().trim().min(1, "name the earlier release as ?from=<id or name>").max(200),
});

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "What changed from one release (?from=) to this one: added, removed and changed tasks, each with why",
    params: IdParams,
    query: DiffQuerySchema,
    response: ReleaseDiffSchema,
  },
  ({ db, params, query, blind }) => diffReleases(db, query.from, params.id, blind),
);
