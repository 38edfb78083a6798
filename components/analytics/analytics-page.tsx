"use client";
import type { ReactNode } from "react";
import { AnalyticsBody, FiltersAndExports } from "./analytics-frame";
import { useAnalytics } from "./use-analytics";

type UrlFilter = ReturnType<typeof useAnalytics>["urlFilter"];

/**
 * One analytics page: its filters (in the URL) and the export links for what they show, an
 * optional note, then its figures once computed. Each page says only what is its own.
 */
export function AnalyticsPage<T>({
  page,
  tables,
  filters,
  note,
  children,
}: {
  /** the page's name under /api/v1/analytics */
  page: string;
  /** the tables its CSV export offers */
  tables: { name: string; label: string }[];
  filters?: (urlFilter: UrlFilter) => ReactNode;
  note?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { data, error, urlFilter, apiPath, queryString } = useAnalytics<T>(page);
  return (
    <div className="flex flex-col gap-4">
      <FiltersAndExports apiPath={apiPath} queryString={queryString} tables={tables}>
        {filters?.(urlFilter)}
      </FiltersAndExports>
      {note}
      <AnalyticsBody data={data} error={error}>
        {children}
      </AnalyticsBody>
    </div>
  );
}
