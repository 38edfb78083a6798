import type { PrismaClient } from "../../lib/db/client";
import { waitFor } from "./worker";

/** Waits until an import batch has left QUEUED and RUNNING; returns the settled row. */
export function waitForImport(db: PrismaClient, batchId: string, timeoutMs = 120_000) {
  return waitFor(
    `import ${batchId} to settle`,
    async () => {
      const row = await db.importBatch.findUniqueOrThrow({ where: { id: batchId } });
      return row.status === "QUEUED" || row.status === "RUNNING" ? null : row;
    },
    timeoutMs,
  );
}
