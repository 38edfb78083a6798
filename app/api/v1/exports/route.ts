import { defineRoute } from "@/lib/http/define-route";
import { ExportRequestSchema } from "@/lib/exports/export-tasks";
import { exportResponse } from "@/lib/exports/export-response";

/**
 * Approved tasks (default), a saved view (?view=name or id) or a task-list query
 * (?query=status%3DAPPROVED%26source%3DSWE_GYM) as SWE-bench JSONL, streamed.
 * ?testLists=json-string writes FAIL_TO_PASS/PASS_TO_PASS as JSON strings; ?provenance=false drops ours.
 */
export const GET = defineRoute(
  {
    permission: "exports:run",
    summary: "Export tasks as SWE-bench-compatible JSONL (streamed)",
    query: ExportRequestSchema,
    produces: "application/x-ndjson",
  },
  ({ db, query, actor, blind }) => exportResponse(db, actor.id, blind, query),
);
