"use client";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import type { EvidenceMatrix, EvidenceRun, Flip, FlipSide } from "@/lib/runs/evidence-matrix";
import { apiFetch } from "@/components/ui/api";
import { Badge, humanize, type Tone } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import type { Jsonified } from "@/components/ui/jsonified";
import { queryKeys } from "@/components/ui/query-keys";
import { runLogHref } from "./run-log-href";

type Matrix = Jsonified<EvidenceMatrix>;
type Run = Jsonified<EvidenceRun>;

const NOT_RECORDED = <span className="italic text-slate-500">not recorded</span>;
const shortImage = (imageId: string) => imageId.replace(/^sha256:/, "").slice(0, 12);

/** The facts of each run, one header row per fact: what a flip is explained from. */
const RUN_FACTS: { label: string; value: (run: Run) => React.ReactNode }[] = [
  {
    label: "Control",
    value: (run) => (run.candidate ? `Candidate (${run.candidate})` : humanize(run.kind).replace(/ control$/i, "")),
  },
  { label: "Rerun", value: (run) => (run.rerun ? `yes (attempt ${run.attempt + 1})` : "no") },
  { label: "Host", value: (run) => run.engine ?? NOT_RECORDED },
  {
    label: "Image",
    value: (run) => (run.imageId ? <span title={run.imageId}>{shortImage(run.imageId)}</span> : NOT_RECORDED),
  },
  { label: "Recipe", value: (run) => `revision ${run.revision.number}` },
  { label: "Parser", value: (run) => run.parserVersion ?? NOT_RECORDED },
];

function RunHeader({ run, index }: { run: Run; index: number }) {
  return (
    <th scope="col" className="whitespace-nowrap px-2 py-1 text-left font-medium">
      <Link className="text-blue-800 underline" href={runLogHref(run.id, null)}>
        Run {index + 1}
      </Link>
      <span className="block text-[11px] font-normal text-slate-600">{new Date(run.createdAt).toLocaleString()}</span>
    </th>
  );
}

function MatrixTable({ matrix }: { matrix: Matrix }) {
  const { runs, tests } = matrix;
  return (
    // scrolls sideways for many runs; focusable so a keyboard can scroll it
    <div
      className="overflow-x-auto rounded border border-slate-200"
      tabIndex={0}
      role="region"
      aria-label="Evidence matrix, scrollable"
    >
      <table className="w-full text-xs" data-testid="evidence-matrix">
        <caption className="sr-only">
          Each test of the task against every run that touched it, with what each run depended on
        </caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="px-2 py-1 text-left font-medium">
              Test
            </th>
            {runs.map((run, index) => (
              <RunHeader key={run.id} run={run} index={index} />
            ))}
          </tr>
          {RUN_FACTS.map((fact) => (
            <tr key={fact.label} className="text-slate-700">
              <th scope="row" className="px-2 py-0.5 text-left font-medium">
                {fact.label}
              </th>
              {runs.map((run) => (
                <td key={run.id} className="whitespace-nowrap px-2 py-0.5">
                  {fact.value(run)}
                </td>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {tests.map((test) => {
            const cells = new Map(test.cells.map((cell) => [cell.runId, cell]));
            return (
              <tr key={test.testId} className="border-t border-slate-100" data-testid="evidence-row">
                {/* wide enough for a pytest id on two lines, and kept in view while the runs scroll past it */}
                <th
                  scope="row"
                  className="sticky left-0 min-w-[18rem] max-w-[28rem] bg-white px-2 py-1 text-left font-mono font-normal [overflow-wrap:anywhere]"
                >
                  {test.testId}
                  <span className="block font-sans text-[11px] text-slate-500">
                    {test.group === "FAIL_TO_PASS" ? "FAIL_TO_PASS" : "PASS_TO_PASS"}
                  </span>
                </th>
                {runs.map((run) => {
                  const cell = cells.get(run.id);
                  if (!cell)
                    return (
                      <td key={run.id} className="px-2 py-1 text-slate-400">
                        —<span className="sr-only">not in this run</span>
                      </td>
                    );
                  const unexpected = cell.actual !== cell.expected;
                  return (
                    <td key={run.id} className={`px-2 py-1 ${unexpected ? "bg-red-50" : ""}`}>
                      <Link
                        href={runLogHref(run.id, cell.logLine)}
                        className="underline decoration-slate-300"
                        title={cell.logLine ? `Open the log at line ${cell.logLine}` : "Open the log"}
                      >
                        <Badge>{cell.actual}</Badge>
                      </Link>
                      {unexpected && <span className="sr-only"> (expected {cell.expected})</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SideLink({ side, label, runs }: { side: FlipSide; label: string; runs: Run[] }) {
  const number = runs.findIndex((run) => run.id === side.runId) + 1;
  const where = side.logLine ? `, line ${side.logLine}` : " (no line names the test)";
  return (
    <Link className="text-blue-800 underline" href={runLogHref(side.runId, side.logLine)}>
      {label}: run {number} {side.actual}
      {where}
    </Link>
  );
}

const CAUSE_TONE: Record<Flip["explanation"]["cause"], Tone> = { changed: "blue", flaky: "amber", unknown: "gray" };

function FlipList({ matrix }: { matrix: Matrix }) {
  if (!matrix.flips.length)
    return <p className="text-sm text-slate-600">No test changed status between two runs of the same control.</p>;
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {matrix.flips.map((flip) => (
        <li
          key={`${flip.testId}|${flip.after.runId}`}
          className="rounded border border-slate-200 bg-white p-2"
          data-testid="flip"
          data-cause={flip.explanation.cause}
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="break-all font-mono text-xs">{flip.testId}</span>
            <span className="text-xs text-slate-600">
              {flip.candidate ? `candidate ${flip.candidate}` : humanize(flip.kind)}: {flip.before.actual} →{" "}
              {flip.after.actual}
            </span>
            <Badge tone={CAUSE_TONE[flip.explanation.cause]}>{flip.explanation.sentence}</Badge>
          </div>
          <div className="mt-1 flex flex-wrap gap-4 text-xs">
            <SideLink side={flip.before} label="Before" runs={matrix.runs} />
            <SideLink side={flip.after} label="After" runs={matrix.runs} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The task's evidence per test: the matrix of tests × runs, and why each flip happened. */
export function EvidenceMatrixPanel({ taskId }: { taskId: string }) {
  const { data, error } = useQuery({
    queryKey: queryKeys.taskEvidence(taskId),
    queryFn: () => apiFetch<Matrix>(`/api/v1/tasks/${taskId}/evidence`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the evidence" />;
  if (!data) return <p className="text-sm text-slate-500">Loading evidence…</p>;
  if (!data.runs.length)
    return <p className="text-sm text-slate-600">No run has test results yet: validate the task to fill the matrix.</p>;
  return (
    <div className="flex flex-col gap-3">
      <MatrixTable matrix={data} />
      <h3 className="text-sm font-semibold">Why tests flipped</h3>
      <FlipList matrix={data} />
      {data.runs.length >= data.runLimit && (
        <p className="text-xs text-slate-500">Only the newest {data.runLimit} runs are shown.</p>
      )}
    </div>
  );
}
