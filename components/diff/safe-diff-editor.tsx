"use client";
import { DiffEditor, type DiffEditorProps } from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useEffect, useRef } from "react";
import { LIGHT_THEME } from "@/components/editor/monaco-setup";

/**
 * Monaco's DiffEditor that unmounts cleanly. @monaco-editor/react disposes the text models
 * before the diff widget lets go of them, which throws "TextModel got disposed before
 * DiffEditorWidget model got reset" on every task switch; here the component keeps its
 * models and they are disposed once the widget itself is gone.
 * Each side must be named: Monaco's text input on an unnamed side fails WCAG's
 * input-name rule, so the labels are required rather than optional. They are set on mount
 * and given as the diff options' side labels, which an options update re-applies.
 */
/**
 * Holds a diff side's accessible name. Monaco's diff editor re-derives each side's options
 * from only the options that changed, so any later update (a re-render, a layout switch)
 * resets a side's ariaLabel to "" and its text input loses its name; this puts it back.
 */
function keepAriaLabel(side: MonacoEditor.ICodeEditor, label: string, ariaLabelOption: MonacoEditor.EditorOption.ariaLabel) {
  const restore = () => {
    if (side.getOption(ariaLabelOption) !== label) side.updateOptions({ ariaLabel: label });
  };
  restore();
  side.onDidChangeConfiguration(restore);
  // the text input's attribute is rewritten by Monaco's view on its own schedule: hold it there too
  const node = side.getDomNode();
  if (!node) return;
  const nameInputs = () => {
    for (const input of node.querySelectorAll<HTMLElement>('.native-edit-context, textarea.inputarea, [role="textbox"]')) {
      if (!input.getAttribute("aria-label")) input.setAttribute("aria-label", label);
    }
  };
  nameInputs();
  const observer = new MutationObserver(nameInputs);
  observer.observe(node, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
  side.onDidDispose(() => observer.disconnect());
}

export function SafeDiffEditor({ sideLabels, ...props }: Omit<DiffEditorProps, "keepCurrentOriginalModel" | "keepCurrentModifiedModel"> & { sideLabels: { original: string; modified: string } }) {
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
      theme={LIGHT_THEME}
      {...props}
      // also as options: every options update (a re-render with a new object) re-derives each side's ariaLabel from these
      options={{ ...props.options, originalAriaLabel: sideLabels.original, modifiedAriaLabel: sideLabels.modified }}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor, monaco) => {
        models.current = editor.getModel();
        keepAriaLabel(editor.getOriginalEditor(), sideLabels.original, monaco.editor.EditorOption.ariaLabel);
        keepAriaLabel(editor.getModifiedEditor(), sideLabels.modified, monaco.editor.EditorOption.ariaLabel);
        props.onMount?.(editor, monaco);
      }}
    />
  );
}
