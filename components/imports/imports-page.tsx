"use client";
import { useState } from "react";
import { useCan } from "@/components/auth/actor-context";
import { UploadPanel } from "./upload-panel";
import { BatchReport } from "./batch-report";
import { BatchHistory } from "./batch-history";
import { ExportPanel } from "./export-panel";

export function ImportsPage() {
  const mayImport = useCan("imports:run");
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <div className="grid content-start gap-4">
        {mayImport ? (
          <UploadPanel onStarted={setSelected} />
        ) : (
          <p className="text-sm text-slate-600">
            Importing needs the curator role; you can read the history and export.
          </p>
        )}
        {selected ? <BatchReport batchId={selected} /> : null}
        <BatchHistory selected={selected} onSelect={setSelected} />
      </div>
      <div className="grid content-start gap-4">
        <ExportPanel />
      </div>
    </div>
  );
}
