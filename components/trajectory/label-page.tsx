"use client";
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import { queryKeys, TRAJECTORY_LABEL_STEPS } from "@/components/ui/query-keys";

type LabelCount = { label: string; count: number; byModel: { model: string; role: string; count: number }[] };
type LabelledStep = {
  id: string;
  stepIndex: number;
  comment: string | null;
  createdAt: string;
  author: { name: string | null; email: string };
  trajectory: {
    id: string;
    externalId: string;
    model: string | null;
    role: string;
    task: { instanceId: string } | null;
  };
};

/** Every label with its counts per model, and every step given the chosen one, each a link to the step. */
export function LabelPage({ label }: { label: string | null }) {
  const counts = useQuery({
    queryKey: queryKeys.trajectoryLabels(),
    queryFn: () => apiFetch<{ items: LabelCount[] }>("/api/v1/trajectories/labels"),
  });
  const steps = useQuery({
    queryKey: queryKeys.trajectoryLabelSteps(label),
    queryFn: () =>
      apiFetch<{ items: LabelledStep[]; nextCursor: string | null }>(
        `/api/v1/trajectories/labels/steps?limit=${TRAJECTORY_LABEL_STEPS}&label=${encodeURIComponent(label!)}`,
      ),
    enabled: !!label,
  });
  const chosen = counts.data?.items.find((c) => c.label === label);
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Step labels{label ? `: ${label}` : ""}</h1>
      <nav aria-label="Labels" className="flex flex-wrap gap-2 text-sm">
        {counts.data?.items.map((c) => (
          <Link
            key={c.label}
            href={`/trajectories/labels?label=${encodeURIComponent(c.label)}`}
            aria-current={c.label === label ? "page" : undefined}
            className={`rounded px-2 py-0.5 ring-1 ring-inset ring-amber-300 ${c.label === label ? "bg-amber-200" : "bg-amber-50"}`}
          >
            {c.label} ({c.count})
          </Link>
        ))}
      </nav>
      {chosen && chosen.byModel.length > 0 && (
        <table className="text-sm" aria-label="Per model">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="pr-4">Model</th>
              <th className="pr-4">Role</th>
              <th>Steps labelled</th>
            </tr>
          </thead>
          <tbody>
            {chosen.byModel.map((m) => (
              <tr key={`${m.model}-${m.role}`}>
                <td className="pr-4 font-mono">{m.model}</td>
                <td className="pr-4">{m.role.toLowerCase()}</td>
                <td>{m.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!label && <p className="text-sm text-slate-600">Pick a label to list every step given it.</p>}
      {steps.error && <p role="alert">{steps.error.message}</p>}
      {steps.data && (
        <ul className="divide-y rounded border bg-white text-sm" aria-label={`Steps labelled ${label}`}>
          {!steps.data.items.length && <li className="p-3 text-slate-600">No step has this label yet.</li>}
          {steps.data.items.map((s) => (
            <li key={s.id} className="p-3">
              <Link
                className="text-blue-700 underline"
                href={`/trajectories/${s.trajectory.id}?step=${s.stepIndex + 1}`}
              >
                Step {s.stepIndex + 1} of {s.trajectory.externalId}
              </Link>{" "}
              <span className="text-slate-600">
                ({s.trajectory.role.toLowerCase()}, {s.trajectory.model ?? "unknown model"}
                {s.trajectory.task ? `, ${s.trajectory.task.instanceId}` : ""})
              </span>
              {s.comment && <p className="mt-1">{s.comment}</p>}
              <p className="text-xs text-slate-500">by {s.author.name ?? s.author.email}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
