import type { StepKind } from "@/lib/trajectories/step-kind";

// One icon and colour per kind, the same in the list, the filter chips and the detail.
export const KIND_STYLE: Record<StepKind, { icon: string; label: string; className: string }> = {
  READ: { icon: "👁", label: "Read", className: "bg-sky-50 text-sky-800 ring-sky-300" },
  SEARCH: { icon: "🔍", label: "Search", className: "bg-indigo-50 text-indigo-800 ring-indigo-300" },
  EDIT: { icon: "✎", label: "Edit", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  RUN: { icon: "▶", label: "Run", className: "bg-slate-100 text-slate-800 ring-slate-300" },
  TEST: { icon: "✓", label: "Test", className: "bg-green-50 text-green-800 ring-green-300" },
  SUBMIT: { icon: "⚑", label: "Submit", className: "bg-purple-50 text-purple-800 ring-purple-300" },
  THINK: { icon: "💭", label: "Think", className: "bg-white text-slate-600 ring-slate-200" },
  ERROR: { icon: "⚠", label: "Error", className: "bg-red-50 text-red-800 ring-red-300" },
};

export function StepKindBadge({ kind }: { kind: StepKind | null }) {
  const style = KIND_STYLE[kind ?? "RUN"];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded px-1 text-[11px] font-medium ring-1 ring-inset ${style.className}`}
      data-kind={kind ?? "RUN"}
    >
      <span aria-hidden="true">{style.icon}</span>
      {style.label}
    </span>
  );
}
