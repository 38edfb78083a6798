import { z } from "zod";
import { defineRoute } from "./define-route";
import { AnyObject } from "./api-schemas";
import type { Db } from "../db/client";
import { analyticsResponse, ExportQueryFields } from "../analytics/export-table";

/** GET /api/v1/analytics/<page>: the page's figures as JSON, or one of its tables as CSV (the page's export buttons). */
export function defineAnalyticsRoute<Q extends z.ZodObject>(page: string, summary: string, querySchema: Q, compute: (db: Db, query: z.output<Q>) => Promise<object>) {
  return defineRoute({ permission: "tasks:read", summary, query: querySchema.extend(ExportQueryFields), response: AnyObject }, async ({ db, query }) => {
    const { format, table, ...filters } = query as { format: "json" | "csv"; table?: string };
    return analyticsResponse(page, (await compute(db, filters as z.output<Q>)) as Record<string, unknown>, { format, table });
  });
}
