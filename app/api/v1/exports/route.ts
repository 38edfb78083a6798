import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ExportRequestSchema } from "@/lib/exports/export-tasks";
import { exportResponse } from "@/lib/exports/export-response";

/**
 * Approved tasks (default), a saved view (?view=name or id) or a task-list query
 * (?query=status%3DAPPROVED%26source%3DSWE_GYM) as SWE-bench JSONL, streamed.
 * ?testLists=json-string writes FAIL_TO_PASS/PASS_TO_PASS as JSON strings; ?provenance=false drops ours.
 */
export const GET = defineRoute(PERMISSIONS["exports:run"], async ({ url, actor }) => exportResponse(prisma, actor.id, parseQuery(url, ExportRequestSchema)));
