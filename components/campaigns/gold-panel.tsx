"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Answers, RubricQuestion } from "@/lib/campaigns/rubric";
import { ApiError, apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";
import { RubricForm } from "./rubric-form";

/** An admin adds a gold task: its reference answers (the rubric itself) and why they are right. */
export function GoldPanel({ campaignId, questions }: { campaignId: string; questions: RubricQuestion[] }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [taskId, setTaskId] = useState("");
  const [explanation, setExplanation] = useState("");
  const [reference, setReference] = useState<Answers>({});
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      const result = await apiFetch<{ instanceId: string }>(`/api/v1/campaigns/${campaignId}/gold`, {
        method: "POST",
        json: { taskId, reference, explanation },
      });
      setSaved(result.instanceId);
      setReference({});
      setTaskId("");
      setExplanation("");
      await client.invalidateQueries({ queryKey: queryKeys.campaign(campaignId) });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-label="Gold set">
      <h2 className="mb-2 text-base font-semibold">Gold set</h2>
      <p className="mb-2 text-sm text-slate-600">
        New annotators label the gold tasks first and must match the references well enough before they get real tasks;
        after each one they see the reference and its explanation.
      </p>
      {saved && (
        <p role="status" className="mb-2 text-sm text-green-800">
          {saved} is a gold task now.
        </p>
      )}
      {!open ? (
        <button type="button" className="text-sm text-blue-700 underline" onClick={() => setOpen(true)}>
          Add a gold task
        </button>
      ) : (
        <div className="flex max-w-2xl flex-col gap-3">
          <ErrorText error={error} />
          <Field
            label="Task (instance id)"
            error={
              error instanceof ApiError ? (error.fieldErrors.find((e) => e.field === "taskId")?.detail ?? null) : null
            }
          >
            {(id) => (
              <input id={id} className={inputClass} value={taskId} onChange={(e) => setTaskId(e.target.value)} />
            )}
          </Field>
          <Field label="Why the reference answers are right">
            {(id) => (
              <textarea
                id={id}
                className={inputClass}
                rows={2}
                value={explanation}
                onChange={(e) => setExplanation(e.target.value)}
              />
            )}
          </Field>
          <RubricForm
            testId="gold-form"
            questions={questions}
            answers={reference}
            onChange={setReference}
            onSubmit={() => void save()}
            errors={
              error instanceof ApiError
                ? error.fieldErrors.map((e) => ({ ...e, field: e.field.replace(/^reference\./, "answers.") }))
                : []
            }
            submitLabel="Save gold task"
          />
        </div>
      )}
    </section>
  );
}
