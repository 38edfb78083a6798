/** done of total as a labelled progress bar (screen readers read the numbers). */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div className="flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="h-2 w-32 overflow-hidden rounded bg-slate-200"
      >
        <div className="h-full bg-blue-600" style={{ width: `${share * 100}%` }} />
      </div>
      <span className="text-xs tabular-nums text-slate-700">
        {done} / {total}
      </span>
    </div>
  );
}
