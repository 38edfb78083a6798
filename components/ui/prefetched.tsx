import "server-only";
import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from "@tanstack/react-query";
import { toJsonData } from "@/lib/json/bigint-json";
import { AppError } from "@/lib/errors/app-error";
import type { Jsonified } from "./jsonified";

/** A server value as the browser receives it from /api/v1: dates as ISO strings, bigints as numbers. */
export function asApiJson<T>(value: T): Jsonified<T> {
  return toJsonData<Jsonified<T>>(value);
}

/**
 * A page's read of something named in its URL: null for an unknown one (NOT_FOUND) or one
 * the reader may not open (FORBIDDEN), so the page hands the client nothing and the client
 * says why from the API's own answer.
 */
export function unlessRefused<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((error: unknown) => {
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "FORBIDDEN")) return null;
    throw error;
  });
}

/**
 * Data read on the server, handed to the client's queries under their own keys: the page's
 * first HTML carries its content, and TanStack Query takes over (refetches, polling,
 * mutations) once the page is interactive. Each value must be what the matching /api/v1
 * route answers.
 */
export function Prefetched({ entries, children }: { entries: [QueryKey, unknown][]; children: React.ReactNode }) {
  const client = new QueryClient();
  for (const [key, value] of entries) client.setQueryData(key, asApiJson(value));
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
