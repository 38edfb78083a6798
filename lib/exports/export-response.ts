import type { Db } from "../db/client";
import { exportTasks, resolveExportFilters, type ParsedExportRequest } from "./export-tasks";

/** The export as a streamed HTTP response: JSONL chunks leave as each page of tasks is read. */
export async function exportResponse(db: Db, actorId: string, request: ParsedExportRequest): Promise<Response> {
  // resolve before streaming, so a bad view is a 404 and not a broken download
  const { filters, description } = await resolveExportFilters(db, actorId, request);
  const lines = exportTasks(db, filters, { actorId, testLists: request.testLists, provenance: request.provenance });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
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
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="swe-curator-export-${stamp}.jsonl"`,
      "x-export-selection": encodeURIComponent(description),
      "cache-control": "no-store",
    },
  });
}
