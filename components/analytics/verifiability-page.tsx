"use client";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { AnalyticsBody, ExportLinks } from "./analytics-frame";
import { FigureTable } from "./figure-table";
import { RateChartBeside } from "./rate-chart";
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
            <RateChartBeside
              title="Share of verifiable steps per project"
              testId="verifiability"
              table={result.projects}
              rates={[VERIFIABLE_SHARE]}
              emptyText="No test-driven step has run yet: import SWE-Flow steps and validate them."
            />
            <FigureTable table={result.failures} testId="verifiability-failures" />
          </div>
        )}
      </AnalyticsBody>
    </div>
  );
}
