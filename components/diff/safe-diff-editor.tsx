"use client";
import { DiffEditor, type DiffEditorProps } from "@monaco-editor/react";
import type { editor as MonacoEditor } from "monaco-editor";
import { useEffect, useId, useRef, useState } from "react";
import { LIGHT_THEME } from "@/components/editor/monaco-setup";

const TEXT_INPUTS = '.native-edit-context, textarea.inputarea, [role="textbox"]';

/**
 * Names every text input under `root` by `aria-labelledby`, pointing at its side's hidden
 * label, and says when all are named. The side labels given as options are not enough: the
 * diff editor re-derives each side's options from only the options that changed, so a later
 * update (a re-render, a layout switch) resets a side's ariaLabel to "", and the view writes
 * that "" onto the input. A name by reference outranks aria-label and is an attribute Monaco
 * never writes. The observer sits on our own element, not on an editor instance, from before
 * Monaco loads: every input any view creates beneath it is named, whichever editor made it.
 * An input inside a side (Monaco's side class) takes that side's label, any other both.
 */
function nameEveryInput(
  root: HTMLElement,
  labelIds: { original: string; modified: string },
  onNamed: (named: boolean) => void,
) {
  const labelFor = (input: Element) =>
    input.closest(".original-in-monaco-diff-editor")
      ? labelIds.original
      : input.closest(".modified-in-monaco-diff-editor")
        ? labelIds.modified
        : `${labelIds.original} ${labelIds.modified}`;
  const name = () => {
    const inputs = root.querySelectorAll<HTMLElement>(TEXT_INPUTS);
    for (const input of inputs) {
      const wanted = labelFor(input);
      if (input.getAttribute("aria-labelledby") !== wanted) input.setAttribute("aria-labelledby", wanted);
    }
    onNamed(inputs.length > 0);
  };
  name();
  const observer = new MutationObserver(name);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-labelledby"] });
  return () => observer.disconnect();
}

const labelIdsOf = (id: string) => ({ original: `${id}-original`, modified: `${id}-modified` });

/**
 * Monaco's DiffEditor that unmounts cleanly. @monaco-editor/react disposes the text models
 * before the diff widget lets go of them, which throws "TextModel got disposed before
 * DiffEditorWidget model got reset" on every task switch; here the component keeps its
 * models and they are disposed once the widget itself is gone.
 * Each side must be named: Monaco's text input on an unnamed side fails WCAG's
 * input-name rule, so the labels are required rather than optional. They are given as
 * the diff options' side labels and, by reference, on every input (nameEveryInput).
 */
export function SafeDiffEditor({
  sideLabels,
  ...props
}: Omit<DiffEditorProps, "keepCurrentOriginalModel" | "keepCurrentModifiedModel"> & {
  sideLabels: { original: string; modified: string };
}) {
  const models = useRef<MonacoEditor.IDiffEditorModel | null>(null);
  const id = useId();
  const labelIds = labelIdsOf(id);
  const [named, setNamed] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => nameEveryInput(root.current!, labelIdsOf(id), setNamed), [id]);
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
    <div ref={root} aria-busy={!named}>
      {/* what each side's text input is named by (nameEveryInput) */}
      <span id={labelIds.original} hidden>
        {sideLabels.original}
      </span>
      <span id={labelIds.modified} hidden>
        {sideLabels.modified}
      </span>
      <DiffEditor
        theme={LIGHT_THEME}
        {...props}
        // also as options: every options update (a re-render with a new object) re-derives each side's ariaLabel from these
        options={{ ...props.options, originalAriaLabel: sideLabels.original, modifiedAriaLabel: sideLabels.modified }}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor, monaco) => {
          models.current = editor.getModel();
          props.onMount?.(editor, monaco);
        }}
      />
    </div>
  );
}
