import "server-only";
import type { z } from "zod";
import { pageContext } from "@/lib/http/page-context";
import { analyticsQueryString } from "@/lib/analytics/analytics-query";
import { ExportQueryFields } from "@/lib/analytics/export-table";
import { AppError } from "@/lib/errors/app-error";
import { queryRecord, toSearchParams } from "@/lib/http/search-params";
import { queryKeys } from "@/components/ui/query-keys";
import type { AnalyticsCompute } from "@/lib/http/analytics-route";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * An analytics page's figures for the URL's filters, computed as its GET
 * /api/v1/analytics/<page> route computes them (lib/http/analytics-route.ts: the same query
 * schema and compute function), under the key useAnalytics reads, so the first HTML shows
 * them. A URL the route would refuse, or answer with CSV, gives no entry: the client asks
 * the API and says what it answered.
 */
export async function analyticsPageData<Q extends z.ZodObject>(
  page: string,
  querySchema: Q,
  compute: AnalyticsCompute<Q>,
  searchParams: SearchParams,
) {
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const { db, blind } = await pageContext();
  const queryString = analyticsQueryString(toSearchParams(searchParams));
  const parsed = querySchema.extend(ExportQueryFields).safeParse(queryRecord(new URLSearchParams(queryString)));
  if (!parsed.success) return [];
  const { format, table, ...filters } = parsed.data as { format: "json" | "csv"; table?: string };
  if (format !== "json" || table !== undefined) return [];
  const figures = await compute(db, filters as z.output<Q>, blind).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "BAD_REQUEST") return null;
    throw error;
  });
  if (!figures) return [];
  return [[queryKeys.analytics(page, queryString), figures]] satisfies [readonly unknown[], unknown][];
}
