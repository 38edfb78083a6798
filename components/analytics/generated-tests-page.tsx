"use client";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { AnalyticsBody, ChartBeside, ExportLinks, FilterSelect } from "./analytics-frame";
import { FigureTable, percent } from "./figure-table";
import { useAnalytics } from "./use-analytics";

type Result = { rates: Table; tests: Table };
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
  const { data, error, params, setParam, apiPath, queryString } = useAnalytics<Result>("generated-tests");
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect label="Per" name="by" value={params.get("by") ?? ""} options={BY_OPTIONS} onChange={(by) => setParam({ by })} />
        <ExportLinks apiPath={apiPath} queryString={queryString} tables={[{ name: "rates", label: "Rates" }, { name: "tests", label: "Tests" }]} />
      </div>
      <AnalyticsBody data={data} error={error}>
        {(result) => (
          <div className="flex flex-col gap-8">
            <ChartBeside
              chart={
                <GroupedBarChart
                  title="Generated tests that attack, are accurate, and both"
                  testId="generated-tests-chart"
                  data={result.rates.rows.map((row) => ({
                    label: row.key,
                    values: Object.fromEntries(RATES.map((r) => [r.key, row[r.key] as number | null])),
                    hrefs: Object.fromEntries(RATES.map((r) => [r.key, result.rates.drill[row.key]?.[r.drill]])),
                  }))}
                  series={RATES.map((r) => ({ key: r.key, name: r.name }))}
                  format={percent}
                  emptyText="No generated test yet: import a generator's tests for a task and validate them."
                />
              }
              table={<FigureTable table={result.rates} testId="generated-tests-table" />}
            />
            <FigureTable table={result.tests} testId="generated-tests-runs" />
          </div>
        )}
      </AnalyticsBody>
    </div>
  );
}
