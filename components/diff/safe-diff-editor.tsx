"use client";
import { DiffEditor, type DiffEditorProps } from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useEffect, useRef } from "react";
import { LIGHT_THEME } from "@/components/editor/monaco-setup";

const TEXT_INPUTS = '.native-edit-context, textarea.inputarea, [role="textbox"]';

/**
 * Names every text input anywhere in the diff widget, now and whenever Monaco writes one.
 * The side labels given as options are not enough: the diff editor re-derives each side's
 * options from only the options that changed, so a later update (a re-render, a layout
 * switch) resets a side's ariaLabel to "", and the view rewrites an input's attribute on its
 * own schedule. An input inside a side takes that side's label; any other the two together.
 */
function nameEveryInput(diff: MonacoEditor.IStandaloneDiffEditor, labels: { original: string; modified: string }) {
  const container = diff.getContainerDomNode();
  const sides = [
    { node: diff.getOriginalEditor().getDomNode(), label: labels.original },
    { node: diff.getModifiedEditor().getDomNode(), label: labels.modified },
  ];
  const labelFor = (input: Element) => sides.find((side) => side.node?.contains(input))?.label ?? `${labels.original} and ${labels.modified}`;
  const name = () => {
    for (const input of container.querySelectorAll<HTMLElement>(TEXT_INPUTS)) {
      if (!input.getAttribute("aria-label")) input.setAttribute("aria-label", labelFor(input));
    }
  };
  name();
  const observer = new MutationObserver(name);
  observer.observe(container, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
  diff.onDidDispose(() => observer.disconnect());
}

/**
 * Monaco's DiffEditor that unmounts cleanly. @monaco-editor/react disposes the text models
 * before the diff widget lets go of them, which throws "TextModel got disposed before
 * DiffEditorWidget model got reset" on every task switch; here the component keeps its
 * models and they are disposed once the widget itself is gone.
 * Each side must be named: Monaco's text input on an unnamed side fails WCAG's
 * input-name rule, so the labels are required rather than optional. They are given as
 * the diff options' side labels and held on every input (nameEveryInput).
 */
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
        nameEveryInput(editor, sideLabels);
        props.onMount?.(editor, monaco);
      }}
    />
  );
}
