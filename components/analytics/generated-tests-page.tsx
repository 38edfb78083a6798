"use client";
import type { GeneratedTestAnalytics } from "@/lib/analytics/generated-tests";
import { PromoteTests } from "./promote-tests";
import { AnalyticsBody, FiltersAndExports, FilterSelect } from "./analytics-frame";
import { FigureTable } from "./figure-table";
import { RateChartBeside } from "./rate-chart";
import { useAnalytics } from "./use-analytics";

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
  const { data, error, urlFilter, apiPath, queryString } = useAnalytics<GeneratedTestAnalytics>("generated-tests");
  return (
    <div className="flex flex-col gap-4">
      <FiltersAndExports
        apiPath={apiPath}
        queryString={queryString}
        tables={[
          { name: "rates", label: "Rates" },
          { name: "tests", label: "Tests" },
        ]}
      >
        <FilterSelect label="Per" {...urlFilter("by")} options={BY_OPTIONS} />
      </FiltersAndExports>
      <AnalyticsBody data={data} error={error}>
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
      </AnalyticsBody>
    </div>
  );
}
