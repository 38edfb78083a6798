"use client";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { AnalyticsPage } from "./analytics-page";
import { FigureTable } from "./figure-table";
import { RateChartBeside } from "./rate-chart";

type Result = { projects: Table; failures: Table };
const VERIFIABLE_SHARE = { key: "verifiableShare", name: "verifiable share", drill: "verifiable" };

export function VerifiabilityPage() {
  return (
    <AnalyticsPage<Result>
      page="verifiability"
      tables={[
        { name: "projects", label: "Projects" },
        { name: "failures", label: "Non-verifiable steps" },
      ]}
    >
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
    </AnalyticsPage>
  );
}
