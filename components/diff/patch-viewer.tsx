"use client";
import { SafeDiffEditor } from "./safe-diff-editor";
import { useMemo, useState } from "react";
import { buildFileTree, languageForPath, parseUnifiedDiff, reconstructSides } from "@/lib/tasks/unified-diff";
import { useMonacoReady } from "@/components/editor/use-monaco";
import { FileTree } from "./file-tree";

type Layout = "side-by-side" | "inline";

/**
 * A patch as a file tree plus a Monaco diff of the selected file. The repository's base
 * files are not stored, so both sides are rebuilt from the patch itself, and the UI says so.
 */
export function PatchViewer({ patch, label, layout, onLayoutChange }: { patch: string; label: string; layout: Layout; onLayoutChange: (layout: Layout) => void }) {
  const files = useMemo(() => parseUnifiedDiff(patch), [patch]);
  const tree = useMemo(() => buildFileTree(files), [files]);
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const selected = files.find((f) => f.path === selectedPath) ?? files[0] ?? null;
  const sides = useMemo(() => (selected ? reconstructSides(selected) : null), [selected]);
  const { ready } = useMonacoReady();

  if (!patch.trim()) return <p className="text-sm text-slate-600">This task has no {label.toLowerCase()}.</p>;
  if (files.length === 0) {
    return (
      <div>
        <p className="text-sm text-amber-800">The {label.toLowerCase()} is not a unified diff this viewer understands; here it is as text.</p>
        <pre className="mt-2 max-h-96 overflow-auto rounded border bg-white p-3 text-xs">{patch}</pre>
      </div>
    );
  }
  return (
    <section aria-label={label} className="grid grid-cols-[minmax(12rem,16rem)_1fr] gap-3" data-testid={`patch-${label.toLowerCase().replace(/\W+/g, "-")}`}>
      <div className="max-h-[32rem] overflow-auto rounded border border-slate-200 bg-white p-1">
        <FileTree nodes={tree} selected={selected?.path ?? null} onSelect={setSelectedPath} label={`Files in the ${label.toLowerCase()}`} />
      </div>
      <div className="min-w-0">
        <div className="mb-1 flex flex-wrap items-center gap-2 text-xs">
          <span className="font-mono font-medium">{selected?.path}</span>
          {selected?.binary && <span className="text-amber-700">binary file: no text diff</span>}
          <span className="ml-auto inline-flex overflow-hidden rounded border border-slate-300" role="group" aria-label="Diff layout">
            {(["side-by-side", "inline"] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={layout === option}
                onClick={() => onLayoutChange(option)}
                className={`px-2 py-0.5 ${layout === option ? "bg-slate-800 text-white" : "bg-white hover:bg-slate-100"}`}
              >
                {option === "side-by-side" ? "Side by side" : "Inline"}
              </button>
            ))}
          </span>
        </div>
        {sides && !sides.complete && (
          <p className="mb-1 text-xs text-slate-600" data-testid="reconstructed-note">
            The base file is not stored: both sides are rebuilt from the patch&apos;s own lines, so only the hunks are real code
            {sides.placeholderLines > 0 ? `; ${sides.placeholderLines} lines outside them are blank placeholders (folded) that keep line numbers true` : ""}.
          </p>
        )}
        {ready && sides ? (
          <div className="overflow-hidden rounded border border-slate-300" data-testid="monaco-diff">
            <SafeDiffEditor
              key={`${selected?.path}-${layout}`}
              original={sides.original}
              modified={sides.modified}
              language={languageForPath(selected?.path ?? "")}
              height={Math.min(520, Math.max(160, (sides.modified.split("\n").length - sides.placeholderLines + 8) * 19))}
              options={{
                readOnly: true,
                renderSideBySide: layout === "side-by-side",
                minimap: { enabled: false },
                scrollBeyondLastLine: false,
                fontSize: 12,
                automaticLayout: true,
                hideUnchangedRegions: { enabled: sides.placeholderLines > 0, contextLineCount: 3, minimumLineCount: 3, revealLineCount: 20 },
                originalEditable: false,
                // the layout toggle is the curator's choice: do not silently switch to inline on narrow screens
                useInlineViewWhenSpaceIsLimited: false,
              }}
            />
          </div>
        ) : (
          <div className="h-40 animate-pulse rounded border bg-slate-100" aria-busy="true" aria-label="Loading the diff editor" />
        )}
      </div>
    </section>
  );
}
