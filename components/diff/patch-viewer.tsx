"use client";
import { Group, Panel, Separator } from "react-resizable-panels";
import { useMemo, useState } from "react";
import {
  buildFileTree,
  languageForPath,
  parseUnifiedDiff,
  sidesOfFile,
  type DiffFile,
  type DiffSides,
} from "@/lib/tasks/unified-diff";
import { heightForLines, useMonacoReady } from "@/components/editor/use-monaco";
import { SafeDiffEditor } from "./safe-diff-editor";
import { FileTree } from "./file-tree";
import { useBaseFile } from "./use-base-file";

type Layout = "side-by-side" | "inline";

function LayoutToggle({ layout, onChange }: { layout: Layout; onChange: (layout: Layout) => void }) {
  // no overflow clipping on the group: a focused button's ring must stay visible
  return (
    <span className="ml-auto inline-flex rounded border border-slate-300" role="group" aria-label="Diff layout">
      {(["side-by-side", "inline"] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={layout === option}
          onClick={() => onChange(option)}
          className={`px-2 py-0.5 first:rounded-l last:rounded-r ${layout === option ? "bg-slate-800 text-white" : "bg-white hover:bg-slate-100"}`}
        >
          {option === "side-by-side" ? "Side by side" : "Inline"}
        </button>
      ))}
    </span>
  );
}

function SidesNote({ sides }: { sides: DiffSides }) {
  if (sides.whole) {
    return (
      <p className="mb-1 text-xs text-slate-700" data-testid="whole-file-note">
        Whole file at the base commit ({sides.lines} lines); unchanged regions are folded — expand them in the editor.
      </p>
    );
  }
  if (sides.complete) return null;
  return (
    <p className="mb-1 text-xs text-slate-700" data-testid="reconstructed-note">
      {sides.why ?? "The base file is not stored."} Both sides are rebuilt from the patch&apos;s own lines: only the
      changed hunks and their context are real code
      {sides.placeholderLines > 0
        ? `; the ${sides.placeholderLines} lines between hunks are blank placeholders (folded) that keep line numbers true`
        : ""}
      .
    </p>
  );
}

/** Lines the folded editor shows: each hunk with its context and a fold line above and below, never more than the file. */
function shownLines(file: DiffFile, sides: DiffSides): number {
  if (!sides.whole) return sides.modified.split("\n").length - sides.placeholderLines;
  return Math.min(
    sides.lines,
    file.hunks.reduce((sum, hunk) => sum + hunk.lines.length + 8, 0),
  );
}

function DiffOfFile({ file, sides, layout }: { file: DiffFile; sides: DiffSides; layout: Layout }) {
  const { ready, ref } = useMonacoReady();
  const path = file.path;
  const height = heightForLines(shownLines(file, sides), { min: 120, max: 640, padding: 3 });
  if (!ready) {
    return (
      <div
        ref={ref}
        style={{ height }}
        className="animate-pulse rounded border bg-slate-100"
        role="status"
        aria-busy="true"
      >
        <span className="sr-only">Loading the diff editor</span>
      </div>
    );
  }
  return (
    <div
      className="overflow-hidden rounded border border-slate-300 focus-within:ring-2 focus-within:ring-blue-600"
      data-testid="monaco-diff"
    >
      <SafeDiffEditor
        key={`${path}-${layout}-${sides.whole}`}
        original={sides.original}
        modified={sides.modified}
        language={languageForPath(path)}
        height={height}
        sideLabels={{ original: `${path} before the patch`, modified: `${path} after the patch` }}
        options={{
          readOnly: true,
          renderSideBySide: layout === "side-by-side",
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 12,
          automaticLayout: true,
          hideUnchangedRegions: {
            enabled: sides.whole || sides.placeholderLines > 0,
            contextLineCount: 3,
            minimumLineCount: 3,
            revealLineCount: 20,
          },
          originalEditable: false,
          // the layout toggle is the curator's choice: do not silently switch to inline on narrow screens
          useInlineViewWhenSpaceIsLimited: false,
          // a whole file ends with its newline: Monaco on Linux dims that last empty line's number below WCAG contrast
          renderFinalNewline: "on",
        }}
      />
    </div>
  );
}

/**
 * A patch as a file tree beside a Monaco diff of the selected file, split by a handle the
 * curator can drag or move with the arrow keys. With the task's base file stored (read from
 * its environment's image after a build), both sides are whole files with the unchanged
 * regions folded; without it, both sides are rebuilt from the patch itself, and the UI says why.
 */
export function PatchViewer({
  taskId,
  patch,
  label,
  layout,
  onLayoutChange,
}: {
  taskId: string;
  patch: string;
  label: string;
  layout: Layout;
  onLayoutChange: (layout: Layout) => void;
}) {
  const files = useMemo(() => parseUnifiedDiff(patch), [patch]);
  const tree = useMemo(() => buildFileTree(files), [files]);
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const selected = files.find((f) => f.path === selectedPath) ?? files[0] ?? null;
  const { loading, base } = useBaseFile(
    taskId,
    selected && selected.status !== "added" && !selected.binary ? selected.oldPath : null,
  );
  const sides = useMemo(() => (selected && !loading ? sidesOfFile(selected, base) : null), [selected, loading, base]);

  if (!patch.trim()) return <p className="text-sm text-slate-600">This task has no {label.toLowerCase()}.</p>;
  if (files.length === 0) {
    return (
      <div>
        <p className="text-sm text-amber-800">
          The {label.toLowerCase()} is not a unified diff this viewer understands; here it is as text.
        </p>
        <pre className="mt-2 max-h-96 overflow-auto rounded border bg-white p-3 text-xs">{patch}</pre>
      </div>
    );
  }
  return (
    <section aria-label={label} data-testid={`patch-${label.toLowerCase().replace(/\W+/g, "-")}`}>
      <Group orientation="horizontal" className="min-h-40">
        <Panel defaultSize="20" minSize="10" maxSize="50">
          <div className="h-full max-h-[40rem] overflow-auto rounded border border-slate-200 bg-white p-1">
            <FileTree
              nodes={tree}
              selected={selected?.path ?? null}
              onSelect={setSelectedPath}
              label={`Files in the ${label.toLowerCase()}`}
            />
          </div>
        </Panel>
        <Separator
          className="mx-1 w-1.5 rounded bg-slate-200 hover:bg-blue-300 data-[separator=active]:bg-blue-500"
          aria-label={`Resize the file list of the ${label.toLowerCase()}`}
        />
        <Panel minSize="40">
          <div className="min-w-0">
            <div className="mb-1 flex flex-wrap items-center gap-2 text-xs">
              <span className="font-mono font-medium">{selected?.path}</span>
              {selected?.binary && <span className="text-amber-800">binary file: no text diff</span>}
              <LayoutToggle layout={layout} onChange={onLayoutChange} />
            </div>
            {sides && <SidesNote sides={sides} />}
            {selected && loading && (
              <div className="h-32 animate-pulse rounded border bg-slate-100" role="status" aria-busy="true">
                <span className="sr-only">Loading the base file</span>
              </div>
            )}
            {sides && selected && <DiffOfFile key={selected.path} file={selected} sides={sides} layout={layout} />}
          </div>
        </Panel>
      </Group>
    </section>
  );
}
