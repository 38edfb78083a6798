import { z } from "zod";
import { defineRoute } from "./define-route";
import { AnyObject } from "./api-schemas";
import type { Db } from "../db/client";
import { analyticsResponse, ExportQueryFields } from "../analytics/export-table";
import type { BlindSet } from "../auth/blind";

/** An analytics page's computation: its figures over every task but those the reader's blind set hides. */
export type AnalyticsCompute<Q extends z.ZodObject> = (db: Db, query: z.output<Q>, blind: BlindSet) => Promise<object>;

/** GET /api/v1/analytics/<page>: the page's figures as JSON, or one of its tables as CSV (the page's export buttons). */
export function defineAnalyticsRoute<Q extends z.ZodObject>(
  page: string,
  summary: string,
  querySchema: Q,
  compute: AnalyticsCompute<Q>,
) {
  return defineRoute(
    { permission: "tasks:read", summary, query: querySchema.extend(ExportQueryFields), response: AnyObject },
    async ({ db, query, blind }) => {
      const { format, table, ...filters } = query as { format: "json" | "csv"; table?: string };
      return analyticsResponse(page, (await compute(db, filters as z.output<Q>, blind)) as Record<string, unknown>, {
        format,
        table,
      });
    },
  );
}
