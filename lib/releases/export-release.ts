import { z } from "zod";
import type { Db } from "../db/client";
import type { BlindSet } from "../auth/blind";
import { loadPage } from "../exports/export-tasks";
import { toSweBenchRow } from "../exports/swe-bench-row";
import { textStream } from "../exports/export-response";
import { getRelease, type ReleaseSummary, type ReleaseTaskRow } from "./read-releases";

// A release's export files: the tasks as SWE-bench JSONL (the export's own rows, lib/exports,
// each naming the release and the fingerprint it was released on), and a manifest that lists
// what the release holds. Both file names carry the release's name.

export const ReleaseExportQuerySchema = z.object({
  file: z.enum(["jsonl", "manifest"]).default("jsonl"),
  testLists: z.enum(["list", "json-string"]).default("list"),
});
export type ReleaseExportQuery = z.infer<typeof ReleaseExportQuerySchema>;

const PAGE = 200;

export const releaseFileName = (name: string, file: ReleaseExportQuery["file"]) =>
  file === "manifest" ? `swe-curator-release-${name}.manifest.json` : `swe-curator-release-${name}.jsonl`;

/** The manifest: the release, and per task its fingerprint, verdicts and decisions. */
export function releaseManifest(release: ReleaseSummary, tasks: ReleaseTaskRow[]) {
  return {
    release: {
      id: release.id,
      name: release.name,
      description: release.description,
      createdAt: release.createdAt.toISOString(),
      createdBy: release.createdByEmail,
    },
    files: { tasks: releaseFileName(release.name, "jsonl") },
    taskCount: tasks.length,
    tasks: tasks.map((task) => ({
      instance_id: task.instanceId,
      evidence_fingerprint: task.evidenceFingerprint,
      verdicts: task.verdicts,
      decisions: task.decisions,
    })),
  };
}

/** JSONL pages of the release's tasks, each row naming the release and the fingerprint it was released on. */
export async function* releaseRows(
  db: Db,
  release: ReleaseSummary,
  tasks: ReleaseTaskRow[],
  testLists: ReleaseExportQuery["testLists"],
): AsyncGenerator<string> {
  const exportedAt = new Date();
  for (let start = 0; start < tasks.length; start += PAGE) {
    const slice = tasks.slice(start, start + PAGE);
    const fingerprints = new Map(slice.map((task) => [task.taskId, task.evidenceFingerprint]));
    const rows = (
      await loadPage(
        db,
        slice.map((task) => task.taskId),
      )
    ).map((task) => {
      const row = toSweBenchRow(task, { testLists, provenance: true, exportedAt });
      const provenance = row.swe_curator as Record<string, unknown>;
      row.swe_curator = {
        ...provenance,
        release: release.name,
        release_id: release.id,
        evidence_fingerprint: fingerprints.get(task.id),
      };
      return JSON.stringify(row) + "\n";
    });
    if (rows.length) yield rows.join("");
  }
}

/** The release's export file as a download response. */
export async function releaseExportResponse(
  db: Db,
  idOrName: string,
  blind: BlindSet,
  query: ReleaseExportQuery,
): Promise<Response> {
  const release = await getRelease(db, idOrName, blind);
  const headers = {
    "content-disposition": `attachment; filename="${releaseFileName(release.name, query.file)}"`,
    "x-release": encodeURIComponent(release.name),
    "cache-control": "no-store",
  };
  if (query.file === "manifest") {
    return new Response(JSON.stringify(releaseManifest(release, release.tasks), null, 2), {
      headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    });
  }
  const body = textStream(releaseRows(db, release, release.tasks, query.testLists));
  return new Response(body, { headers: { ...headers, "content-type": "application/x-ndjson; charset=utf-8" } });
}
