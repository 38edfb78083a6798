import { prisma } from "../db/client";
import { AppError } from "../errors/app-error";
import { blindSetOf, type Reader } from "../auth/blind";
import { CrossSearchQuerySchema, searchAllSteps } from "./search-all-steps";
import { ClusterQuerySchema, clusterFailures } from "./failure-clusters";
import { clusterQueryString, crossSearchQueryString, type CrossSearchParams } from "./cross-search-url";

// The search page's first data, read through the same functions and schemas as its API routes
// (GET /api/v1/trajectories/search and …/clusters), as the same reader, so the first HTML shows
// the results. A query the route would refuse gives nothing: the browser asks and says why.

/** The first page of matching steps, or null when there are no words or the route would refuse the query. */
export async function firstSearchPage(reader: Reader, params: CrossSearchParams) {
  const query = CrossSearchQuerySchema.safeParse(
    Object.fromEntries(new URLSearchParams(crossSearchQueryString(params))),
  );
  if (!params.q || !query.success) return null;
  // words too short to search: the route answers 400 with its sentence, which the browser shows
  return searchAllSteps(prisma, query.data, blindSetOf(prisma, reader)).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "BAD_REQUEST") return null;
    throw error;
  });
}

/** The failure clusters under the page's filters, or null when the route would refuse them. */
export async function clustersForPage(reader: Reader, params: CrossSearchParams) {
  const query = ClusterQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(clusterQueryString(params))));
  if (!query.success) return null;
  return clusterFailures(prisma, query.data, blindSetOf(prisma, reader));
}
