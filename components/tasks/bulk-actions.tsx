"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { useActor } from "@/components/auth/actor-context";

type BulkResult = { matched: number; changed: number; missing: number; skipped?: { taskId: string; reason: string }[] };

function describe(action: string, result: BulkResult): string {
  if (action === "validate") {
    const skipped = result.skipped ?? [];
    return (
      `Queued validation of ${result.changed} task${result.changed === 1 ? "" : "s"}` +
      (skipped.length ? `; ${skipped.length} skipped (${skipped[0].reason}${skipped.length > 1 ? ", …" : ""})` : "")
    );
  }
  return `${result.changed} of ${result.matched} task${result.matched === 1 ? "" : "s"} changed`;
}

/** Actions on the selected rows: assign, label, validate. */
export function BulkActions({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const actor = useActor();
  const client = useQueryClient();
  const [label, setLabel] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [confirmingValidate, setConfirmingValidate] = useState(false);
  const assignees = useQuery({
    queryKey: ["assignees"],
    queryFn: () => apiFetchAll<{ id: string; name: string }>("/api/v1/tasks/assignees"),
    enabled: selected.length > 0,
  });
  const bulk = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<BulkResult>("/api/v1/tasks/bulk", { method: "POST", json: { ...body, taskIds: selected } }),
    onSuccess: (result, body) => {
      setConfirmingValidate(false);
      setMessage(describe(String(body.action), result));
      setLabel("");
      onDone();
      return Promise.all([
        client.invalidateQueries({ queryKey: ["tasks"] }),
        client.invalidateQueries({ queryKey: ["task-facets"] }),
      ]);
    },
  });
  if (selected.length === 0)
    return message ? (
      <p className="text-sm text-green-800" role="status">
        {message}
      </p>
    ) : null;
  return (
    <div
      className="flex flex-wrap items-end gap-2 rounded border border-blue-200 bg-blue-50 px-3 py-2 text-sm"
      role="region"
      aria-label="Bulk actions"
    >
      <span className="font-medium">{selected.length} selected</span>
      <label className="flex flex-col text-xs">
        Assign to
        <select
          className={inputClass}
          defaultValue=""
          onChange={(e) => {
            if (e.target.value)
              bulk.mutate({ action: "assign", assigneeId: e.target.value === "none" ? null : e.target.value });
            e.target.value = "";
          }}
        >
          <option value="">Choose…</option>
          <option value={actor.id}>Me</option>
          <option value="none">Nobody (unassign)</option>
          {assignees.data
            ?.filter((a) => a.id !== actor.id)
            .map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
        </select>
      </label>
      <label className="flex flex-col text-xs">
        Label
        <input value={label} onChange={(e) => setLabel(e.target.value)} className={`${inputClass} w-36`} />
      </label>
      <Button
        size="sm"
        disabled={!label.trim() || bulk.isPending}
        onClick={() => bulk.mutate({ action: "label", add: [label.trim()] })}
      >
        Add label
      </Button>
      <Button
        size="sm"
        disabled={!label.trim() || bulk.isPending}
        onClick={() => bulk.mutate({ action: "label", remove: [label.trim()] })}
      >
        Remove label
      </Button>
      {confirmingValidate ? (
        // queuing runs for many tasks at once is costly to take back: say how many before it happens
        <span className="flex flex-wrap items-center gap-2" role="group" aria-label="Confirm bulk validation">
          <span>
            Validate {selected.length} task{selected.length === 1 ? "" : "s"}? This queues {selected.length * 2} runs
            (both controls of each).
          </span>
          <Button
            size="sm"
            variant="primary"
            autoFocus
            disabled={bulk.isPending}
            onClick={() => bulk.mutate({ action: "validate" })}
          >
            Validate {selected.length}
          </Button>
          <Button size="sm" onClick={() => setConfirmingValidate(false)}>
            Cancel
          </Button>
        </span>
      ) : (
        <Button
          size="sm"
          disabled={bulk.isPending}
          onClick={() => setConfirmingValidate(true)}
          title="Queue both controls for each selected task"
        >
          Validate…
        </Button>
      )}
      <ErrorText error={bulk.error} />
    </div>
  );
}
