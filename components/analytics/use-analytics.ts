"use client";
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { analyticsQueryString } from "@/lib/analytics/analytics-query";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";

/**
 * An analytics page's filters live in the URL (shareable, back/forward work); the figures
 * come from GET /api/v1/analytics/<page> with the same filters. The server page reads the
 * first figures (app/(dashboard)/analytics/analytics-page-data.ts) under the same key.
 */
export function useAnalytics<T>(page: string) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const queryString = params.toString();
  const setParam = useCallback(
    (changes: Record<string, string | undefined>) => {
      const next = new URLSearchParams(queryString);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      router.replace(`${pathname}${next.size ? `?${next}` : ""}`, { scroll: false });
    },
    [queryString, pathname, router],
  );
  const filters = analyticsQueryString(params);
  const result = useQuery({
    queryKey: queryKeys.analytics(page, filters),
    queryFn: () => apiFetch<T>(`/api/v1/analytics/${page}${filters ? `?${filters}` : ""}`),
  });
  /** A FilterSelect's name, value and change handler for the URL parameter `name`. */
  const urlFilter = (name: string) => ({
    name,
    value: params.get(name) ?? "",
    onChange: (value: string | undefined) => setParam({ [name]: value }),
  });
  return { ...result, params, queryString, setParam, urlFilter, apiPath: `/api/v1/analytics/${page}` };
}
