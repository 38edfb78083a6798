"use client";
import { DiffEditor, type DiffEditorProps } from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useEffect, useRef } from "react";

/**
 * Monaco's DiffEditor that unmounts cleanly. @monaco-editor/react disposes the text models
 * before the diff widget lets go of them, which throws "TextModel got disposed before
 * DiffEditorWidget model got reset" on every task switch; here the component keeps its
 * models and they are disposed once the widget itself is gone.
 */
export function SafeDiffEditor(props: Omit<DiffEditorProps, "keepCurrentOriginalModel" | "keepCurrentModifiedModel">) {
  const models = useRef<MonacoEditor.IDiffEditorModel | null>(null);
  useEffect(
    () => () => {
      const current = models.current;
      setTimeout(() => {
        current?.original.dispose();
        current?.modified.dispose();
      });
    },
    [],
  );
  return (
    <DiffEditor
      {...props}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor, monaco) => {
        models.current = editor.getModel();
        props.onMount?.(editor, monaco);
      }}
    />
  );
}
