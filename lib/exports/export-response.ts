import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../db/client";
import {
  exportTasks,
  planExport,
  resolveExportFilters,
  type ExportPlan,
  type ParsedExportRequest,
} from "./export-tasks";
import type { ExclusionReport } from "./release-filters";
import { exportParquet } from "./export-parquet";
import type { BlindSet } from "../auth/blind";

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");

/** Parquet needs its footer written last: it is built in a temporary file, then streamed from disk. */
async function parquetResponse(
  db: Db,
  actorId: string,
  blind: BlindSet,
  request: ParsedExportRequest,
  filters: Awaited<ReturnType<typeof resolveExportFilters>>["filters"],
  plan: ExportPlan,
) {
  const dir = await mkdtemp(path.join(tmpdir(), "swe-curator-export-"));
  const file = path.join(dir, "export.parquet");
  try {
    await exportParquet(db, filters, file, { actorId, blind, provenance: request.provenance, plan });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const { size } = await stat(file);
  const stream = createReadStream(file);
  stream.on("close", () => void rm(dir, { recursive: true, force: true }));
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      "content-type": "application/vnd.apache.parquet",
      "content-length": String(size),
      "content-disposition": `attachment; filename="swe-curator-export-${stamp()}.parquet"`,
      ...reportHeaders(plan.report),
      "cache-control": "no-store",
    },
  });
}

/** A generator of text chunks as a byte stream: a chunk is read only when the client takes the previous one. */
export function textStream(lines: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}

/** What the export left out, before its first byte: the sentence, and the counts per reason as JSON (both URI-encoded, as a header must be ASCII). */
function reportHeaders(report: ExclusionReport): Record<string, string> {
  return {
    "x-export-exported": String(report.exported),
    "x-export-excluded": encodeURIComponent(report.sentence),
    "x-export-report": encodeURIComponent(JSON.stringify(report)),
  };
}

/** What an export with these options would hold and leave out, without its rows: the export page shows it before the download. */
export async function exportPreview(
  db: Db,
  actorId: string,
  blind: BlindSet,
  request: ParsedExportRequest,
): Promise<ExclusionReport & { selection: string }> {
  const { filters, description, release } = await resolveExportFilters(db, actorId, request);
  const { report } = await planExport(db, filters, { actorId, blind, release });
  return { ...report, selection: description };
}

/** The export as a streamed HTTP response: JSONL chunks leave as each page of tasks is read; the tasks `blind` hides are left out. */
export async function exportResponse(
  db: Db,
  actorId: string,
  blind: BlindSet,
  request: ParsedExportRequest,
): Promise<Response> {
  // resolve before streaming, so a bad view is a 404 and not a broken download
  const { filters, description, release } = await resolveExportFilters(db, actorId, request);
  // planned before streaming too: what the export leaves out travels in its headers
  const plan = await planExport(db, filters, { actorId, blind, release });
  if (request.format === "parquet") return parquetResponse(db, actorId, blind, request, filters, plan);
  const lines = exportTasks(db, filters, {
    actorId,
    blind,
    testLists: request.testLists,
    provenance: request.provenance,
    plan,
  });
  const body = textStream(lines);
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="swe-curator-export-${stamp()}.jsonl"`,
      "x-export-selection": encodeURIComponent(description),
      ...reportHeaders(plan.report),
      "cache-control": "no-store",
    },
  });
}
