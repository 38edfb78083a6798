"use client";
import Editor, { type OnMount } from "@monaco-editor/react";
import { useMonacoReady } from "./use-monaco";

export type CodeEditorProps = {
  value: string;
  language: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  height?: number | string;
  label: string;
  onMount?: OnMount;
};

/** Monaco for one file (Dockerfile, eval script). Loaded from our own bundle; shows plain text until ready. */
export function CodeEditor({ value, language, onChange, readOnly = false, height = 320, label, onMount }: CodeEditorProps) {
  const { ready, error } = useMonacoReady();
  if (error) return <pre className="overflow-auto rounded border bg-white p-3 text-xs">{value}</pre>;
  if (!ready) return <div style={{ height }} className="animate-pulse rounded border bg-slate-100" aria-busy="true" aria-label={`${label} (loading editor)`} />;
  return (
    <div className="overflow-hidden rounded border border-slate-300" data-testid={`editor-${label.toLowerCase().replace(/\W+/g, "-")}`}>
      <Editor
        value={value}
        language={language}
        height={height}
        onChange={(v) => onChange?.(v ?? "")}
        onMount={onMount}
        options={{
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          automaticLayout: true,
          ariaLabel: label,
          wordWrap: "off",
        }}
      />
    </div>
  );
}
