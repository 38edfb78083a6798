"use client";
import { useMutation } from "@tanstack/react-query";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { DecisionReason, type AutomatedVerdict, type DecisionVerdict } from "@/lib/db/enums";
import { DECISION_REASON_LABELS, decisionProblem, overridesAutomated } from "@/lib/curation/decision-rules";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { ConflictNotice, isConflict } from "./conflict-notice";

const VERDICTS: { value: DecisionVerdict; label: string; key: string }[] = [
  { value: "APPROVE", label: "Approve", key: "a" },
  { value: "REJECT", label: "Reject", key: "r" },
  { value: "NEEDS_CHANGES", label: "Needs changes", key: "n" },
];

export type DecisionFormHandle = { choose(verdict: DecisionVerdict): void };

type Props = { taskId: string; version: number; automatedVerdict: AutomatedVerdict; onDecided: () => void; onStale: () => void };

/**
 * Approve / reject / needs changes with reasons from the fixed taxonomy and a comment; a
 * justification appears when the decision contradicts automation. On a conflict the input
 * stays, so the curator can look at the newer version and submit again.
 */
export const DecisionForm = forwardRef<DecisionFormHandle, Props>(function DecisionForm({ taskId, version, automatedVerdict, onDecided, onStale }, ref) {
  const [verdict, setVerdict] = useState<DecisionVerdict>("APPROVE");
  const [reasons, setReasons] = useState<DecisionReason[]>([]);
  const [comment, setComment] = useState("");
  const [justification, setJustification] = useState("");
  const [touched, setTouched] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);
  const firstReasonRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const decide = useMutation({
    mutationFn: () => apiFetch("/api/v1/decisions", { method: "POST", json: { taskId, verdict, reasons, comment: comment || undefined, justification: justification || undefined, version } }),
    onSuccess: () => {
      setReasons([]);
      setComment("");
      setJustification("");
      setTouched(false);
      onDecided();
    },
  });

  useImperativeHandle(ref, () => ({
    choose(next) {
      setVerdict(next);
      formRef.current?.scrollIntoView({ block: "center" });
      // approving needs nothing more: focus Submit, so Enter sends it; otherwise start at the reasons
      requestAnimationFrame(() => (next === "APPROVE" ? submitRef.current : firstReasonRef.current)?.focus());
    },
  }));

  const isOverride = overridesAutomated(verdict, automatedVerdict);
  const problem = decisionProblem({ verdict, reasons, comment, justification }, automatedVerdict);
  return (
    <form
      ref={formRef}
      aria-label="Decision"
      data-testid="decision-form"
      className="flex flex-col gap-3 rounded border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!problem) decide.mutate();
      }}
    >
      <fieldset className="flex flex-wrap gap-2">
        <legend className="mb-1 text-xs font-semibold text-slate-600">Verdict</legend>
        {VERDICTS.map((v) => (
          <label key={v.value} className={`flex cursor-pointer items-center gap-1 rounded border px-2 py-1 text-sm ${verdict === v.value ? "border-blue-700 bg-blue-50" : "border-slate-300"}`}>
            <input type="radio" name="verdict" value={v.value} checked={verdict === v.value} onChange={() => setVerdict(v.value)} />
            {v.label} <kbd className="rounded bg-slate-100 px-1 text-xs text-slate-500">{v.key}</kbd>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="mb-1 text-xs font-semibold text-slate-600">Reasons {verdict === "APPROVE" ? "(optional)" : "(at least one)"}</legend>
        <div className="grid grid-cols-2 gap-1 text-sm">
          {Object.values(DecisionReason).map((reason, i) => (
            <label key={reason} className="flex items-center gap-2">
              <input
                ref={i === 0 ? firstReasonRef : undefined}
                type="checkbox"
                checked={reasons.includes(reason)}
                onChange={() => setReasons((r) => (r.includes(reason) ? r.filter((x) => x !== reason) : [...r, reason]))}
              />
              {DECISION_REASON_LABELS[reason]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex flex-col gap-1 text-xs font-semibold text-slate-600">
        Comment
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} className="rounded border border-slate-300 p-2 text-sm font-normal" />
      </label>
      {isOverride && (
        <label className="flex flex-col gap-1 text-xs font-semibold text-amber-800">
          Justification — automation judged this task {automatedVerdict}
          <textarea value={justification} onChange={(e) => setJustification(e.target.value)} rows={2} className="rounded border border-amber-400 p-2 text-sm font-normal" data-testid="justification" />
        </label>
      )}
      {touched && problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {isConflict(decide.error) ? (
        <ConflictNotice
          error={decide.error}
          retryLabel="Load the latest version (your input is kept)"
          onRetry={() => {
            decide.reset();
            onStale();
          }}
        />
      ) : (
        <ErrorText error={decide.error} />
      )}
      <div className="flex items-center gap-2">
        <Button ref={submitRef} type="submit" variant={verdict === "APPROVE" ? "primary" : verdict === "REJECT" ? "danger" : "secondary"} disabled={decide.isPending} data-testid="submit-decision">
          {decide.isPending ? "Saving…" : `Submit: ${VERDICTS.find((v) => v.value === verdict)?.label}`}
        </Button>
        <span className="text-xs text-slate-500">on version {version}</span>
      </div>
    </form>
  );
});
