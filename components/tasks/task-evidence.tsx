"use client";
import { useState } from "react";
import { Markdown } from "@/components/markdown/markdown";
import { PatchViewer } from "@/components/diff/patch-viewer";
import { Tabs } from "@/components/ui/tabs";
import { GlossaryLines, Term } from "./glossary";
import type { TaskDetailJson } from "./use-task";

type Layout = "side-by-side" | "inline";

function TestNames({ tests, term }: { tests: string[]; term: "FAIL_TO_PASS" | "PASS_TO_PASS" }) {
  return (
    <div className="text-xs">
      <Term term={term} /> <span className="text-slate-700">({tests.length})</span>
      {tests.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-slate-700">
            show the {tests.length === 1 ? "test" : `${tests.length} tests`}
          </summary>
          <ul className="mt-1 max-h-48 overflow-auto font-mono">
            {tests.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** What the task asks: the issue as written, its hints, and the tests that judge a fix. */
export function ProblemEvidence({ task }: { task: TaskDetailJson }) {
  return (
    <>
      <div className="rounded border border-slate-200 bg-white p-4">
        <Markdown html={task.problemStatementHtml} testId="problem-statement" />
      </div>
      {task.hintsHtml && (
        <details className="rounded border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium">Hints</summary>
          <Markdown html={task.hintsHtml} />
        </details>
      )}
      <div className="grid gap-3 rounded border border-slate-200 bg-white p-3 md:grid-cols-2">
        <TestNames tests={task.failToPass} term="FAIL_TO_PASS" />
        <TestNames tests={task.passToPass} term="PASS_TO_PASS" />
        <div className="md:col-span-2">
          <GlossaryLines terms={["FAIL_TO_PASS", "PASS_TO_PASS"]} />
        </div>
      </div>
    </>
  );
}

/** The reference fix and the test patch, each as a full-width diff. */
export function PatchEvidence({
  task,
  layout,
  onLayoutChange,
}: {
  task: TaskDetailJson;
  layout: Layout;
  onLayoutChange: (layout: Layout) => void;
}) {
  const [patchTab, setPatchTab] = useState<"fix" | "test">("fix");
  return (
    <>
      <Tabs
        label="Patches"
        value={patchTab}
        onChange={setPatchTab}
        tabs={[
          { id: "fix", label: "Fix patch" },
          { id: "test", label: "Test patch" },
        ]}
      />
      <PatchViewer
        key={patchTab}
        taskId={task.id}
        patch={patchTab === "fix" ? task.fixPatch : task.testPatch}
        label={patchTab === "fix" ? "Fix patch" : "Test patch"}
        layout={layout}
        onLayoutChange={onLayoutChange}
      />
    </>
  );
}
