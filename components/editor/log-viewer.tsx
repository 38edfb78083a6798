"use client";
import Editor from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useCallback, useMemo, useRef, useState } from "react";
import { useMonacoReady } from "./use-monaco";
import { firstFailureLine, splitAtLine, stripAnsi } from "./log-text";

/** `line`: a 1-based line to open the log at and highlight (a link's #L anchor) */
type Props = { text: string; height?: number | string; label?: string; truncated?: boolean; line?: number | null };

/**
 * A build or run log in a read-only Monaco: ANSI codes stripped, a search box that
 * highlights every match (Enter / Shift+Enter step through them), and "jump to first failure".
 */
export function LogViewer({ text, height = 360, label = "Log", truncated = false, line = null }: Props) {
  const { ready, ref } = useMonacoReady();
  const clean = useMemo(() => stripAnsi(text), [text]);
  const failureLine = useMemo(() => firstFailureLine(clean), [clean]);
  const editorRef = useRef<MonacoEditor.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<MonacoEditor.IEditorDecorationsCollection | null>(null);
  const [query, setQuery] = useState("");
  const [matches, setMatches] = useState<{ count: number; index: number }>({ count: 0, index: -1 });

  const reveal = (line: number) => {
    const editor = editorRef.current;
    if (!editor) return;
    editor.revealLineInCenter(line);
    editor.setSelection({
      startLineNumber: line,
      startColumn: 1,
      endLineNumber: line,
      endColumn: editor.getModel()?.getLineMaxColumn(line) ?? 1,
    });
  };

  const search = useCallback((value: string, step: number) => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    const found = value ? model.findMatches(value, false, false, false, null, false) : [];
    decorations.current?.clear();
    decorations.current = editor.createDecorationsCollection(
      found.map((m) => ({ range: m.range, options: { inlineClassName: "bg-yellow-300" } })),
    );
    if (!found.length) return setMatches({ count: 0, index: -1 });
    setMatches((previous) => {
      const index = step === 0 ? 0 : (Math.max(previous.index, 0) + step + found.length) % found.length;
      editor.revealRangeInCenter(found[index].range);
      editor.setSelection(found[index].range);
      return { count: found.length, index };
    });
  }, []);

  return (
    <div ref={ref} className="flex flex-col gap-2" data-testid="log-viewer">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex items-center gap-1">
          <span className="text-xs text-slate-600">Search {label.toLowerCase()}</span>
          <input
            type="search"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              search(e.target.value, 0);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                search(query, e.shiftKey ? -1 : 1);
              }
            }}
            className="w-56 rounded border border-slate-300 px-2 py-0.5 text-sm"
          />
        </label>
        {query && (
          <span className="text-xs text-slate-600" aria-live="polite">
            {matches.count ? `${matches.index + 1} of ${matches.count}` : "no match"}
          </span>
        )}
        <button
          type="button"
          disabled={!failureLine || !ready}
          onClick={() => failureLine && reveal(failureLine)}
          className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-50"
        >
          {failureLine ? `Jump to first failure (line ${failureLine})` : "No failure found"}
        </button>
        {line && (
          <span className="text-xs text-slate-700" data-testid="log-line">
            Showing line {line}
          </span>
        )}
        {truncated && <span className="text-xs text-amber-700">The log was cut at its size cap; the end is kept.</span>}
      </div>
      {ready ? (
        <div className="overflow-hidden rounded border border-slate-300 focus-within:ring-2 focus-within:ring-blue-600">
          <Editor
            value={clean}
            language="plaintext"
            height={height}
            theme="vs-dark"
            onMount={(editor) => {
              editorRef.current = editor;
              if (line) reveal(line);
            }}
            options={{
              readOnly: true,
              domReadOnly: true,
              minimap: { enabled: false },
              scrollBeyondLastLine: false,
              // Monaco dims the number of the line after a final newline below WCAG contrast on the dark theme
              renderFinalNewline: "on",
              fontSize: 12,
              wordWrap: "on",
              ariaLabel: label,
              automaticLayout: true,
            }}
          />
        </div>
      ) : (
        <pre
          style={{ maxHeight: height }}
          className="overflow-auto rounded border bg-slate-900 p-3 text-xs text-slate-100"
        >
          <PlainLog text={clean} line={line} />
        </pre>
      )}
    </div>
  );
}

/**
 * The log before Monaco is loaded (and in the server's HTML): the asked-for line is marked and
 * carries the id its #L fragment names, so the browser scrolls to it with no script.
 */
function PlainLog({ text, line }: { text: string; line: number | null }) {
  const parts = line ? splitAtLine(text, line) : null;
  if (!parts) return text;
  return (
    <>
      {parts.before}
      <mark id={`L${line}`} data-testid="log-target-line" className="bg-yellow-300 text-slate-900">
        {parts.line}
      </mark>
      {parts.after}
    </>
  );
}
