import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { listRubrics, saveRubricVersion, SaveRubricSchema } from "@/lib/campaigns/rubrics";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

const RubricVersionSchema = z.object({
  id: z.string(),
  rubricId: z.string(),
  name: z.string(),
  version: z.number(),
  questions: z.array(z.unknown()),
});

export const GET = defineRoute(
  {
    permission: "campaigns:annotate",
    summary: "Rubrics, each at its latest version (the default SWE-bench Verified rubric included)",
    query: PageQuerySchema,
    response: z.object({ items: z.array(RubricVersionSchema), nextCursor: z.string().nullable() }),
  },
  async ({ db, query }) => pageOf(await listRubrics(db), query, (r) => r.id),
);

export const POST = defineRoute(
  {
    permission: "campaigns:manage",
    summary: "Save a rubric's questions (a new version when the name exists)",
    body: SaveRubricSchema,
    response: RubricVersionSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => saveRubricVersion(db, actor.id, body),
);
