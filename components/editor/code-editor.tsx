"use client";
import Editor, { type OnMount } from "@monaco-editor/react";
import { heightForLines, useMonacoReady } from "./use-monaco";
import { LIGHT_THEME } from "./monaco-setup";

export type CodeEditorProps = {
  value: string;
  language: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  /** fixed height; by default the editor is as tall as its text, up to a limit */
  height?: number | string;
  label: string;
  onMount?: OnMount;
};

/** Monaco for one file (Dockerfile, eval script). Loaded from our own bundle when scrolled near; shows the text until ready. */
export function CodeEditor({ value, language, onChange, readOnly = false, height, label, onMount }: CodeEditorProps) {
  const { ready, error, ref } = useMonacoReady();
  const testId = `editor-${label.toLowerCase().replace(/\W+/g, "-")}`;
  // editing may add lines: leave room to grow without the editor jumping at every Enter
  const shownHeight = height ?? heightForLines(value.split("\n").length, { padding: readOnly ? 2 : 8 });
  if (error) return <pre className="overflow-auto rounded border bg-white p-3 text-xs">{value}</pre>;
  if (!ready) {
    return (
      <div
        ref={ref}
        style={{ height: shownHeight }}
        className="overflow-hidden rounded border border-slate-300 bg-white"
        role="group"
        aria-busy="true"
        aria-label={`${label} (loading editor)`}
      >
        <pre className="p-2 pl-16 font-mono text-[13px] leading-[19px] text-slate-800">{value}</pre>
      </div>
    );
  }
  return (
    <div
      className="overflow-hidden rounded border border-slate-300 focus-within:ring-2 focus-within:ring-blue-600"
      data-testid={testId}
    >
      <Editor
        value={value}
        language={language}
        theme={LIGHT_THEME}
        height={shownHeight}
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
