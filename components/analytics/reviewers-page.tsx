"use client";
import type { ReviewerAnalytics } from "@/lib/analytics/reviewers";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import { ReliabilityChart, type ReliabilityBin } from "@/components/charts/reliability-chart";
import { ChartBeside, FilterSelect } from "./analytics-frame";
import { AnalyticsPage } from "./analytics-page";
import { FigureTable } from "./figure-table";
import { RateChartBeside } from "./rate-chart";

const BY_OPTIONS = [
  { value: "", label: "Reviewer model" },
  { value: "generator", label: "Generator model" },
  { value: "difficulty", label: "Difficulty" },
  { value: "repository", label: "Repository" },
  { value: "reviewer,generator", label: "Reviewer × generator" },
  { value: "reviewer,difficulty", label: "Reviewer × difficulty" },
  { value: "reviewer,repository", label: "Reviewer × repository" },
  { value: "reviewer,generator,difficulty,repository", label: "Reviewer × generator × difficulty × repository" },
];
const RATES = [
  { key: "accuracy", name: "accuracy", drill: "correct" },
  { key: "falseApprovalRate", name: "false-approval rate", drill: "falseApproval" },
  { key: "falseRejectionRate", name: "false-rejection rate", drill: "falseRejection" },
  { key: "reproducerShare", name: "ran a reproducer", drill: "reproducer" },
];

const REVISION_RATES = [
  { key: "resolveRateBefore", name: "before", drill: "resolvedBefore" },
  { key: "resolveRateAfter", name: "after revision", drill: "resolvedAfter" },
];

type ReviewerPage = ReviewerAnalytics & { revisions: Table; revisionPairs: Table };

function RevisionLoop({ data }: { data: ReviewerPage }) {
  return (
    <>
      <RateChartBeside
        title="Resolve rate before and after revision (reviewer × generator)"
        testId="revision"
        table={data.revisions}
        rates={REVISION_RATES}
        emptyText="No revised patch yet: import a prediction with revision_of (its predecessor's model) and review_id."
      />
      <FigureTable table={data.revisionPairs} testId="revision-pairs" />
    </>
  );
}

function ReviewerCharts({ data }: { data: ReviewerPage }) {
  const causeData = data.causes.rows.map((row) => ({
    label: row.cause as string,
    values: { falseApproval: row.falseApproval as number, falseRejection: row.falseRejection as number },
    hrefs: data.causes.drill[row.key],
  }));
  return (
    <div className="flex flex-col gap-8">
      <RateChartBeside
        title="Decisions against executed ground truth"
        testId="reviewer"
        table={data.measures}
        rates={RATES}
        emptyText="No reviewer verdict yet: import reviewer verdicts and validate their candidate patches."
      />
      <ChartBeside
        chart={
          <ReliabilityChart bins={data.calibration.rows as unknown as ReliabilityBin[]} testId="calibration-chart" />
        }
        table={<FigureTable table={data.calibration} testId="calibration-table" />}
      />
      <ChartBeside
        chart={
          <GroupedBarChart
            title="Causes of wrong decisions"
            testId="causes-chart"
            data={causeData}
            series={[
              { key: "falseApproval", name: "false approvals" },
              { key: "falseRejection", name: "false rejections" },
            ]}
            scale={{ kind: "count" }}
            emptyText="No wrong decision yet."
          />
        }
        table={<FigureTable table={data.causes} testId="causes-table" />}
      />
      <RevisionLoop data={data} />
    </div>
  );
}

export function ReviewersAnalyticsPage() {
  return (
    <AnalyticsPage<ReviewerPage>
      page="reviewers"
      tables={[
        { name: "measures", label: "Measures" },
        { name: "calibration", label: "Calibration" },
        { name: "causes", label: "Causes" },
        { name: "revisions", label: "Revision loop" },
        { name: "revisionPairs", label: "Revised patches" },
      ]}
      filters={(urlFilter) => <FilterSelect label="One row per" {...urlFilter("by")} options={BY_OPTIONS} />}
      note={
        <p className="max-w-3xl text-xs text-slate-600">
          “Ran a reproducer” is read from each review&apos;s steps: a step kind when the importer recorded one,
          otherwise an action that starts an interpreter or a test runner (lib/analytics/reproducer.ts). Causes come
          from the verdict&apos;s <code>cause</code> field.
        </p>
      }
    >
      {(analytics) => <ReviewerCharts data={analytics} />}
    </AnalyticsPage>
  );
}
