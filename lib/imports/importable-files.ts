// The files an import reads, by what they hold and how their names end: one table the
// upload picker's accept list (components/imports/upload-panel.tsx), the refusal sentence
// for a binary file (detect-format.ts) and the docs read, so a format added to the
// importers is offered by the picker too. Browser-safe: no database, no node modules.
// Content decides the format in the end (detect-format.ts); extensions only let the
// browser's picker show the files.

export type ImportableFile = { holds: string; extensions: readonly string[] };

export const IMPORTABLE_FILES: readonly ImportableFile[] = [
  {
    holds: "SWE-bench instances or predictions, OpenSWE rows, SWE-Flow steps, reviewer verdicts, OpenHands output",
    extensions: [".json", ".jsonl"],
  },
  { holds: "Hugging Face dataset rows (SWE-bench, SWE-Gym, SWE-rebench …)", extensions: [".parquet"] },
  { holds: "SWE-agent trajectories", extensions: [".traj"] },
  { holds: "Inspect logs", extensions: [".eval"] },
  { holds: "SWE-bench harness logs", extensions: [".log", ".txt"] },
  {
    holds: "environment folders and harness run folders, archived",
    extensions: [".zip", ".tar", ".tar.gz", ".tgz", ".gz"],
  },
];

/** Every extension an import reads, as an <input type="file"> accept list (".json,.jsonl,…"). */
export function importAcceptList(files: readonly ImportableFile[] = IMPORTABLE_FILES): string {
  return [...new Set(files.flatMap((f) => f.extensions))].join(",");
}

/** "a .json, .jsonl, … or .gz file", for a sentence that says what would have been read. */
export function importableExtensionsSentence(files: readonly ImportableFile[] = IMPORTABLE_FILES): string {
  const all = [...new Set(files.flatMap((f) => f.extensions))];
  return `${all.slice(0, -1).join(", ")} or ${all[all.length - 1]}`;
}
