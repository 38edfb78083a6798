"use client";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import type { GeneratedTestAnalytics } from "@/lib/analytics/generated-tests";
import { PromoteTests } from "./promote-tests";
import { AnalyticsBody, ChartBeside, ExportLinks, FilterSelect } from "./analytics-frame";
import { FigureTable } from "./figure-table";
import { rateChartData } from "./chart-data";
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
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect label="Per" {...urlFilter("by")} options={BY_OPTIONS} />
        <ExportLinks
          apiPath={apiPath}
          queryString={queryString}
          tables={[
            { name: "rates", label: "Rates" },
            { name: "tests", label: "Tests" },
          ]}
        />
      </div>
      <AnalyticsBody data={data} error={error}>
        {(result) => (
          <div className="flex flex-col gap-8">
            <ChartBeside
              chart={
                <GroupedBarChart
                  title="Generated tests that attack, are accurate, and both"
                  testId="generated-tests-chart"
                  data={rateChartData(result.rates, RATES)}
                  series={RATES}
                  scale={{ kind: "rate" }}
                  emptyText="No generated test yet: import a generator's tests for a task and validate them."
                />
              }
              table={<FigureTable table={result.rates} testId="generated-tests-table" />}
            />
            <FigureTable table={result.tests} testId="generated-tests-runs" />
            <PromoteTests tests={result.promotable} />
          </div>
        )}
      </AnalyticsBody>
    </div>
  );
}
