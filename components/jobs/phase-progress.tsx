"use client";

const PHASES = [
  { id: "QUEUED", label: "Queued" },
  { id: "BUILDING_IMAGE", label: "Image" },
  { id: "STARTING_CONTAINER", label: "Container" },
  { id: "APPLYING_PATCHES", label: "Patches" },
  { id: "RUNNING_TESTS", label: "Tests" },
  { id: "COLLECTING_RESULTS", label: "Results" },
  { id: "DONE", label: "Done" },
] as const;

function currentIndex(status: string, phase: string | null): number {
  if (status === "QUEUED") return 0;
  if (status === "RUNNING")
    return Math.max(
      1,
      PHASES.findIndex((p) => p.id === phase),
    );
  return PHASES.length - 1;
}

/** Where a run is: a step list with the current step marked (aria-current="step"). */
export function PhaseProgress({ status, phase, label }: { status: string; phase: string | null; label: string }) {
  const current = currentIndex(status, phase);
  const failed = status === "FAILED" || status === "CANCELLED";
  return (
    <ol aria-label={label} className="flex flex-wrap items-center gap-1 text-xs">
      {PHASES.map((step, index) => {
        const state = index < current ? "done" : index === current ? "current" : "todo";
        const tone =
          state === "done"
            ? "bg-green-100 text-green-800"
            : state === "current"
              ? failed
                ? "bg-red-100 text-red-800"
                : "bg-blue-700 text-white"
              : "bg-slate-100 text-slate-500";
        return (
          <li
            key={step.id}
            aria-current={state === "current" ? "step" : undefined}
            className={`rounded px-1.5 py-0.5 ${tone}`}
          >
            {step.id === "DONE" && failed ? status.toLowerCase() : step.label}
          </li>
        );
      })}
    </ol>
  );
}
