"use client";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { AnalyticsBody, ChartBeside, ExportLinks } from "./analytics-frame";
import { FigureTable } from "./figure-table";
import { rateChartData } from "./chart-data";
import { useAnalytics } from "./use-analytics";

type Result = { projects: Table; failures: Table };
const VERIFIABLE_SHARE = { key: "verifiableShare", name: "verifiable share", drill: "verifiable" };

export function VerifiabilityPage() {
  const { data, error, apiPath, queryString } = useAnalytics<Result>("verifiability");
  return (
    <div className="flex flex-col gap-4">
      <ExportLinks
        apiPath={apiPath}
        queryString={queryString}
        tables={[
          { name: "projects", label: "Projects" },
          { name: "failures", label: "Non-verifiable steps" },
        ]}
      />
      <AnalyticsBody data={data} error={error}>
        {(result) => (
          <div className="flex flex-col gap-8">
            <ChartBeside
              chart={
                <GroupedBarChart
                  title="Share of verifiable steps per project"
                  testId="verifiability-chart"
                  data={rateChartData(result.projects, [VERIFIABLE_SHARE])}
                  series={[VERIFIABLE_SHARE]}
                  scale={{ kind: "rate" }}
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
