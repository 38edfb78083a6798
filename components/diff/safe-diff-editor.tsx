"use client";
import { DiffEditor, type DiffEditorProps } from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useEffect, useId, useRef, useState } from "react";
import { LIGHT_THEME } from "@/components/editor/monaco-setup";

const TEXT_INPUTS = '.native-edit-context, textarea.inputarea, [role="textbox"]';

/**
 * Names every text input anywhere in the diff widget by `aria-labelledby`, pointing at the
 * side's hidden label. The side labels given as options are not enough: the diff editor
 * re-derives each side's options from only the options that changed, so a later update (a
 * re-render, a layout switch) resets a side's ariaLabel to "", and the view then writes that
 * "" onto the input. A name by reference outranks aria-label and is an attribute Monaco never
 * writes, so it holds whatever Monaco does with aria-label; the observer only names the inputs
 * a new view (a new model) creates. An input inside a side takes that side's label, any other
 * both.
 */
function nameEveryInput(diff: MonacoEditor.IStandaloneDiffEditor, labelIds: { original: string; modified: string }) {
  const container = diff.getContainerDomNode();
  const sides = [
    { node: diff.getOriginalEditor().getDomNode(), id: labelIds.original },
    { node: diff.getModifiedEditor().getDomNode(), id: labelIds.modified },
  ];
  const labelFor = (input: Element) => sides.find((side) => side.node?.contains(input))?.id ?? `${labelIds.original} ${labelIds.modified}`;
  const name = () => {
    for (const input of container.querySelectorAll<HTMLElement>(TEXT_INPUTS)) {
      if (!input.getAttribute("aria-labelledby")) input.setAttribute("aria-labelledby", labelFor(input));
    }
  };
  name();
  const observer = new MutationObserver(name);
  observer.observe(container, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-labelledby"] });
  diff.onDidDispose(() => observer.disconnect());
}

/**
 * Monaco's DiffEditor that unmounts cleanly. @monaco-editor/react disposes the text models
 * before the diff widget lets go of them, which throws "TextModel got disposed before
 * DiffEditorWidget model got reset" on every task switch; here the component keeps its
 * models and they are disposed once the widget itself is gone.
 * Each side must be named: Monaco's text input on an unnamed side fails WCAG's
 * input-name rule, so the labels are required rather than optional. They are given as
 * the diff options' side labels and, by reference, on every input (nameEveryInput).
 */
export function SafeDiffEditor({ sideLabels, ...props }: Omit<DiffEditorProps, "keepCurrentOriginalModel" | "keepCurrentModifiedModel"> & { sideLabels: { original: string; modified: string } }) {
  const models = useRef<MonacoEditor.IDiffEditorModel | null>(null);
  const id = useId();
  const labelIds = { original: `${id}-original`, modified: `${id}-modified` };
  const [named, setNamed] = useState(false);
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
    // busy until every input is named, so a reader (and a test) knows the diff is still coming
    <div aria-busy={!named}>
      {/* what each side's text input is named by (nameEveryInput) */}
      <span id={labelIds.original} hidden>{sideLabels.original}</span>
      <span id={labelIds.modified} hidden>{sideLabels.modified}</span>
      <DiffEditor
        theme={LIGHT_THEME}
        {...props}
        // also as options: every options update (a re-render with a new object) re-derives each side's ariaLabel from these
        options={{ ...props.options, originalAriaLabel: sideLabels.original, modifiedAriaLabel: sideLabels.modified }}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor, monaco) => {
          models.current = editor.getModel();
          nameEveryInput(editor, labelIds);
          setNamed(true);
          props.onMount?.(editor, monaco);
        }}
      />
    </div>
  );
}
