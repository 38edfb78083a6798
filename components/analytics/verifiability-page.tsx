"use client";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { AnalyticsBody, ChartBeside, ExportLinks } from "./analytics-frame";
import { FigureTable, percent } from "./figure-table";
import { useAnalytics } from "./use-analytics";

type Result = { projects: Table; failures: Table };

export function VerifiabilityPage() {
  const { data, error, apiPath, queryString } = useAnalytics<Result>("verifiability");
  return (
    <div className="flex flex-col gap-4">
      <ExportLinks apiPath={apiPath} queryString={queryString} tables={[{ name: "projects", label: "Projects" }, { name: "failures", label: "Non-verifiable steps" }]} />
      <AnalyticsBody data={data} error={error}>
        {(result) => (
          <div className="flex flex-col gap-8">
            <ChartBeside
              chart={
                <GroupedBarChart
                  title="Share of verifiable steps per project"
                  testId="verifiability-chart"
                  data={result.projects.rows.map((row) => ({
                    label: row.key,
                    values: { verifiableShare: row.verifiableShare as number | null },
                    hrefs: { verifiableShare: result.projects.drill[row.key]?.verifiable },
                  }))}
                  series={[{ key: "verifiableShare", name: "verifiable share" }]}
                  format={percent}
                  emptyText="No test-driven step has run yet: import SWE-Flow steps and validate them."
                />
              }
              table={<FigureTable table={result.projects} testId="verifiability-table" />}
            />
            <FigureTable table={result.failures} testId="verifiability-failures" />
          </div>
        )}
      </AnalyticsBody>
    </div>
  );
}
