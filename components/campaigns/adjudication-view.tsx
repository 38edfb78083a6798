"use client";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Answers } from "@/lib/campaigns/rubric";
import { ApiError, apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { AnswersTable } from "./answers-table";
import { RubricForm } from "./rubric-form";
import { useCampaignReport, type ReportJson } from "./campaign-overview";

type Disagreement = ReportJson["disagreements"][number];

/** The finished tasks whose labels disagree, widest first, each resolvable by an adjudicator (recorded apart from the labels). */
export function AdjudicationView({ campaignId }: { campaignId: string }) {
  const { data, error } = useCampaignReport(campaignId);
  const [selected, setSelected] = useState<string | null>(null);
  if (error) return <ErrorText error={error} prefix="Could not load the disagreements" />;
  if (!data) return <p>Loading the disagreements…</p>;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold">Adjudicate · {data.settings.name}</h1>
        <Link href={`/campaigns/${campaignId}`} className="ml-auto text-sm text-blue-700 underline">
          Campaign overview
        </Link>
      </div>
      <p className="text-sm text-slate-700" data-testid="disagreement-count">
        {data.disagreementCount} finished tasks with disagreeing labels, widest first. Highlighted rows are the
        questions they disagree on.
      </p>
      <ul className="flex flex-col gap-4" data-testid="disagreements">
        {data.disagreements.map((d) => (
          <li key={d.taskId} className="rounded border border-slate-200 p-3" data-testid="disagreement">
            <div className="mb-2 flex items-center gap-2">
              <span className="font-mono text-sm">{d.instanceId}</span>
              <span className="text-xs text-slate-600">spread {d.spread}</span>
              <Badge tone={d.outcome.dropped ? "red" : "green"}>{d.outcome.dropped ? "dropped" : "kept"}</Badge>
              {d.adjudicated && <Badge tone="purple">adjudicated</Badge>}
              <Button
                size="sm"
                className="ml-auto"
                onClick={() => setSelected(selected === d.taskId ? null : d.taskId)}
                aria-expanded={selected === d.taskId}
              >
                {selected === d.taskId ? "Close" : "Resolve"}
              </Button>
            </div>
            <AnswersTable
              questions={data.settings.questions}
              columns={d.labels.map((l) => ({ name: l.annotator, answers: l.answers }))}
              highlight={d.questions}
            />
            {selected === d.taskId && (
              <ResolveForm campaignId={campaignId} data={data} disagreement={d} onDone={() => setSelected(null)} />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ResolveForm({
  campaignId,
  data,
  disagreement,
  onDone,
}: {
  campaignId: string;
  data: ReportJson;
  disagreement: Disagreement;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [answers, setAnswers] = useState<Answers>(() => ({ ...(disagreement.labels[0]?.answers ?? {}) }) as Answers);
  const [note, setNote] = useState("");
  const [error, setError] = useState<unknown>(null);
  const save = async () => {
    setError(null);
    try {
      await apiFetch(`/api/v1/campaigns/${campaignId}/adjudications`, {
        method: "POST",
        json: { taskId: disagreement.taskId, answers, note: note || undefined },
      });
      await client.invalidateQueries({ queryKey: queryKeys.campaign(campaignId) });
      onDone();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3">
      <ErrorText error={error} />
      <label className="flex flex-col text-xs font-medium text-slate-700">
        Note on the resolution
        <textarea className={inputClass} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <RubricForm
        testId="adjudication-form"
        questions={data.settings.questions}
        answers={answers}
        onChange={setAnswers}
        onSubmit={() => void save()}
        errors={error instanceof ApiError ? error.fieldErrors : []}
        submitLabel="Record resolution"
      />
    </div>
  );
}
