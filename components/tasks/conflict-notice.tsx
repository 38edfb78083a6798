"use client";
import { ApiError } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { humanize } from "@/components/ui/badge";
import type { TaskConflictDetails } from "@/lib/tasks/task-version";
import type { Jsonified } from "@/components/ui/jsonified";

export function isConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "CONFLICT";
}

const SKIP = new Set(["version"]);

function summarize(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  return Object.entries(value as Record<string, unknown>)
    .filter(([k]) => !SKIP.has(k))
    .map(
      ([k, v]) =>
        `${k}: ${Array.isArray(v) ? v.join(", ") || "—" : typeof v === "string" && v.length > 80 ? v.slice(0, 80) + "…" : String(v ?? "—")}`,
    )
    .join(" · ");
}

/**
 * Someone saved first. Shows who changed what since the version this curator saw; their
 * own input stays in the form, and "apply on top" retries against the latest version.
 */
export function ConflictNotice({
  error,
  onRetry,
  retryLabel = "Keep my input and apply it on top of the latest version",
}: {
  error: ApiError;
  onRetry: () => void;
  retryLabel?: string;
}) {
  const details = error.details as Jsonified<TaskConflictDetails> | undefined;
  return (
    <div
      role="alert"
      data-testid="conflict"
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="font-medium">Conflict: {error.message}</p>
      {details?.changes?.length ? (
        <ul className="mt-2 list-disc pl-5 text-xs">
          {details.changes.map((c, i) => (
            <li key={i}>
              <span className="font-medium">{c.actor ?? "someone"}</span> — {humanize(c.action.replace(/^task\./, ""))}{" "}
              at {new Date(c.at).toLocaleTimeString()}: {summarize(c.after)}
            </li>
          ))}
        </ul>
      ) : null}
      <Button size="sm" className="mt-2" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
