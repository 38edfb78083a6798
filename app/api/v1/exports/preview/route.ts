import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { ExportRequestSchema } from "@/lib/exports/export-tasks";
import { exportPreview } from "@/lib/exports/export-response";

const Report = z.object({
  selection: z.string(),
  considered: z.number().int(),
  exported: z.number().int(),
  excluded: z.number().int(),
  reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  sentence: z.string(),
});

/** What GET /exports with the same query would hold and leave out (per reason), without the rows. */
export const GET = defineRoute(
  {
    permission: "exports:run",
    summary: "What an export would hold and what it would exclude, and why",
    query: ExportRequestSchema,
    response: Report,
  },
  ({ db, query, actor, blind }) => exportPreview(db, actor.id, blind, query),
);
