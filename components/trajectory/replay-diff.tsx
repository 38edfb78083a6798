"use client";
import { SafeDiffEditor } from "@/components/diff/safe-diff-editor";
import { useMonacoReady } from "@/components/editor/use-monaco";
import type { ReplayedStep } from "@/lib/trajectories/replay/replay-output";

/** One replayed step's recorded observation (left) and replayed output (right) as a Monaco diff. */
export function ReplayDiff({ step }: { step: ReplayedStep }) {
  const { ready, ref } = useMonacoReady<HTMLParagraphElement>();
  const recorded = step.recorded ?? "";
  const replayed = step.replayed ?? "";
  const lines = Math.max(recorded.split("\n").length, replayed.split("\n").length);
  return ready ? (
    <div className="overflow-hidden rounded border border-slate-300" data-testid="replay-diff">
      <SafeDiffEditor
        original={recorded}
        modified={replayed}
        sideLabels={{ original: `Step ${step.index + 1} as recorded`, modified: `Step ${step.index + 1} as replayed` }}
        language="plaintext"
        height={Math.min(360, Math.max(100, (lines + 3) * 19))}
        options={{
          readOnly: true,
          originalEditable: false,
          renderSideBySide: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          ignoreTrimWhitespace: true,
        }}
      />
    </div>
  ) : (
    <p ref={ref} className="text-xs text-slate-500">
      Loading the diff viewer…
    </p>
  );
}
