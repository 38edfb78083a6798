"use client";
import { Link } from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { CampaignItem } from "@/lib/campaigns/campaign-item";
import type { Served } from "@/lib/campaigns/serve-next";
import type { SubmitResult } from "@/lib/campaigns/submit-label";
import type { Answers } from "@/lib/campaigns/rubric";
import { ApiError, apiFetch } from "@/components/ui/api";
import type { Jsonified } from "@/components/ui/jsonified";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { useShortcuts } from "@/components/tasks/use-shortcuts";
import { RubricForm } from "./rubric-form";
import { AnswersTable } from "./answers-table";

/** One annotator's session: "Review next" serves a task, the rubric is answered, and only then are others' answers shown. */
export function AnnotateView({ campaignId }: { campaignId: string }) {
  // each "next" is a new round: the server leases the next task (a POST, so never refetched on its own)
  const [round, setRound] = useState(0);
  const serve = useQuery({
    queryKey: ["campaign-next", campaignId, round],
    queryFn: () => apiFetch<Jsonified<Served>>(`/api/v1/campaigns/${campaignId}/next`, { method: "POST" }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const served = serve.data ?? null;
  const [answers, setAnswers] = useState<Answers>({});
  const [result, setResult] = useState<Jsonified<SubmitResult> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const nextButton = useRef<HTMLButtonElement>(null);
  const taskId = served && served.kind !== "done" ? served.taskId : null;

  const item = useQuery({
    queryKey: ["campaign-item", campaignId, taskId, result?.taskId ?? null],
    queryFn: () =>
      apiFetch<Jsonified<CampaignItem>>(`/api/v1/campaigns/${campaignId}/item?taskId=${encodeURIComponent(taskId!)}`),
    enabled: !!taskId,
  });

  const next = () => {
    setAnswers({});
    setResult(null);
    setError(null);
    setRound((r) => r + 1);
  };

  const submit = async () => {
    if (!taskId || busy) return;
    setBusy(true);
    setError(null);
    try {
      setResult(
        await apiFetch<Jsonified<SubmitResult>>(`/api/v1/campaigns/${campaignId}/labels`, {
          method: "POST",
          json: { taskId, answers },
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  useShortcuts([{ key: "n", description: "Next task", run: () => result && next() }], !!result);

  const fieldErrors = error instanceof ApiError ? error.fieldErrors : [];
  const data = item.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold">{data?.campaign.name ?? "Annotate"}</h1>
        {served && served.kind !== "done" && served.gate.required && !served.gate.passed && (
          <Badge tone="purple" title="Answer the gold set first; you see the reference after each task">
            Gold set {served.gate.done + 1} of {served.gate.total}
          </Badge>
        )}
        {data?.campaign.blind && <Badge tone="blue">blind</Badge>}
        <Link href={`/campaigns/${campaignId}`} className="ml-auto text-sm text-blue-700 underline">
          Campaign overview
        </Link>
      </div>
      <ErrorText error={error ?? serve.error} />
      {served?.kind === "done" && (
        <p
          data-testid="campaign-done"
          className="rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900"
        >
          Nothing left for you in this campaign: every task you may label has its labels, or is being labelled by
          someone else right now.{" "}
          <Button size="sm" onClick={() => next()}>
            Check again
          </Button>
        </p>
      )}
      {item.error ? <ErrorText error={item.error} /> : null}
      {data && taskId && (
        <div className="grid gap-4 lg:grid-cols-2">
          <section aria-label="The task" className="flex flex-col gap-2">
            <h2 className="font-mono text-sm" data-testid="annotate-instance">
              {data.task.instanceId}
            </h2>
            <p className="text-xs text-slate-600">
              {data.task.repository}
              {"automatedVerdict" in data.task ? (
                <>
                  {" "}
                  · automated verdict <Badge>{String(data.task.automatedVerdict)}</Badge>
                </>
              ) : (
                " · automated verdict hidden until you submit"
              )}
            </p>
            <h3 className="text-sm font-medium">Issue</h3>
            <pre
              data-testid="annotate-problem"
              tabIndex={0}
              aria-label="Issue"
              className="max-h-80 overflow-auto whitespace-pre-wrap rounded border border-slate-200 bg-slate-50 p-2 text-xs"
            >
              {data.task.problemStatement}
            </pre>
            <details>
              <summary className="cursor-pointer text-sm font-medium">Gold patch</summary>
              <pre
                tabIndex={0}
                aria-label="Gold patch"
                className="max-h-80 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs"
              >
                {data.task.fixPatch}
              </pre>
            </details>
            <details open>
              <summary className="cursor-pointer text-sm font-medium">
                Test patch · FAIL_TO_PASS {data.task.failToPass.join(", ")}
              </summary>
              <pre
                tabIndex={0}
                aria-label="Test patch"
                className="max-h-80 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs"
              >
                {data.task.testPatch}
              </pre>
            </details>
          </section>
          <section aria-label="Your answers" className="flex flex-col gap-3">
            {result ? (
              <AfterSubmit result={result} item={data} nextButton={nextButton} onNext={() => next()} />
            ) : (
              <RubricForm
                questions={data.questions}
                answers={answers}
                onChange={setAnswers}
                onSubmit={() => void submit()}
                errors={fieldErrors}
                disabled={busy}
                submitLabel="Submit label"
              />
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function AfterSubmit({
  result,
  item,
  nextButton,
  onNext,
}: {
  result: Jsonified<SubmitResult>;
  item: Jsonified<CampaignItem>;
  nextButton: React.RefObject<HTMLButtonElement | null>;
  onNext: () => void;
}) {
  // the keyboard lands on "Next task", so Enter (or n) goes on
  useEffect(() => nextButton.current?.focus(), [nextButton]);
  return (
    <div className="flex flex-col gap-3" data-testid="after-submit">
      <p role="status" className="rounded border border-green-200 bg-green-50 p-2 text-sm text-green-900">
        Label saved.
        {result.outcome &&
          ` All labels are in: the task is ${result.outcome.dropped ? `dropped (${result.outcome.reasons.join("; ")})` : "kept"}.`}
      </p>
      {result.gold && (
        <div data-testid="gold-feedback" className="rounded border border-purple-200 bg-purple-50 p-2 text-sm">
          <p className="font-medium">Reference answers</p>
          <AnswersTable questions={item.questions} columns={[{ name: "Reference", answers: result.gold.reference }]} />
          <p className="mt-1">{result.gold.explanation}</p>
          <p className="mt-1" data-testid="gold-gate">
            {result.gold.gate.passed
              ? "You passed the gold set: real tasks come next."
              : result.gold.restarted
                ? `You matched ${Math.round((result.gold.gate.accuracy ?? 0) * 100)}% of the references; ${Math.round((result.gold.gate.threshold ?? 0) * 100)}% is needed. The gold set starts over.`
                : `Gold task ${result.gold.gate.done} of ${result.gold.gate.total} done.`}
          </p>
        </div>
      )}
      {item.others && item.others.length > 0 && (
        <div>
          <p className="text-sm font-medium">Others&apos; answers</p>
          <AnswersTable
            questions={item.questions}
            columns={item.others.map((o) => ({ name: o.annotator, answers: o.answers }))}
          />
        </div>
      )}
      <Button ref={nextButton} variant="primary" onClick={onNext} data-testid="next-task">
        Next task (n)
      </Button>
    </div>
  );
}
