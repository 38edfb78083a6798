"use client";
import type { GeneratedTestAnalytics } from "@/lib/analytics/generated-tests";
import { PromoteTests } from "./promote-tests";
import { FilterSelect } from "./analytics-frame";
import { AnalyticsPage } from "./analytics-page";
import { FigureTable } from "./figure-table";
import { RateChartBeside } from "./rate-chart";

const RATES = [
  { key: "attackRate", name: "attack rate", drill: "attacks" },
  { key: "accuracy", name: "output accuracy", drill: "accurate" },
  { key: "validRate", name: "accuracy ∩ attack", drill: "valid" },
];
const BY_OPTIONS = [
  { value: "", label: "Generator" },
  { value: "repository", label: "Repository" },
];

export function GeneratedTestsPage() {
  return (
    <AnalyticsPage<GeneratedTestAnalytics>
      page="generated-tests"
      tables={[
        { name: "rates", label: "Rates" },
        { name: "tests", label: "Tests" },
      ]}
      filters={(urlFilter) => <FilterSelect label="Per" {...urlFilter("by")} options={BY_OPTIONS} />}
    >
      {(result) => (
        <div className="flex flex-col gap-8">
          <RateChartBeside
            title="Generated tests that attack, are accurate, and both"
            testId="generated-tests"
            table={result.rates}
            rates={RATES}
            emptyText="No generated test yet: import a generator's tests for a task and validate them."
          />
          <FigureTable table={result.tests} testId="generated-tests-runs" />
          <PromoteTests tests={result.promotable} />
        </div>
      )}
    </AnalyticsPage>
  );
}
