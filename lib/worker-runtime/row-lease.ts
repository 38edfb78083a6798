import type { Db } from "../db/client";
import type { WorkerConfig } from "./worker-config";

// The Postgres row, not the queue, decides who owns a build, a run or an import: a worker
// (or a CLI import) claims it only while it is still QUEUED, renews a lease while it works,
// and every write it makes afterwards is conditional on still holding it.
export type LeasedTable = "validation_runs" | "builds" | "import_batches";

// an import batch's started_at is when the curator started it, kept across resumed attempts
const CLAIM_COLUMNS: Record<LeasedTable, string> = {
  validation_runs: "started_at = now(),",
  builds: "started_at = now(),",
  import_batches: "",
};

export class LostLeaseError extends Error {
  constructor(table: LeasedTable, id: string) {
    super(`This worker no longer owns ${table} ${id} (its lease expired or it was cancelled); the write was refused`);
    this.name = "LostLeaseError";
  }
}

/** QUEUED → RUNNING for this worker; false when someone else has it or it was cancelled. */
export async function claimRow(db: Db, table: LeasedTable, id: string, workerId: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<unknown[]>(
    `update ${table} set status = 'RUNNING', worker_id = $2, heartbeat_at = now(), ${CLAIM_COLUMNS[table]} finished_at = null,
       attempts = attempts + 1, updated_at = now()
     where id = $1 and status = 'QUEUED' and not cancel_requested returning id`,
    id,
    workerId,
  );
  return rows.length === 1;
}

/** Renews the lease; tells whether we still own the row and whether a cancel was asked for. */
export async function renewLease(
  db: Db,
  table: LeasedTable,
  id: string,
  workerId: string,
): Promise<{ owned: boolean; cancelRequested: boolean }> {
  const rows = await db.$queryRawUnsafe<Array<{ cancel_requested: boolean }>>(
    `update ${table} set heartbeat_at = now() where id = $1 and status = 'RUNNING' and worker_id = $2 returning cancel_requested`,
    id,
    workerId,
  );
  return { owned: rows.length === 1, cancelRequested: rows[0]?.cancel_requested ?? false };
}

export type LeaseState = "held" | "cancelRequested" | "lost" | "shutdown";

export type Lease = {
  /** who holds it: a worker id, or the owner id of an in-process import */
  workerId: string;
  /** aborted when the job must stop: cancel requested, lease lost, or the worker shutting down */
  signal: AbortSignal;
  state(): LeaseState;
  stop(): void;
};

/** Who holds a lease: a worker's context, or an in-process import (no shutdown signal). */
export type LeaseHolder = {
  db: Db;
  workerId: string;
  config: Pick<WorkerConfig, "heartbeatMs">;
  shutdownSignal?: AbortSignal;
};

/** Heartbeats a claimed row until stopped, aborting the signal when the job must stop. */
export function keepLease(holder: LeaseHolder, table: LeasedTable, id: string): Lease {
  const controller = new AbortController();
  let state: LeaseState = "held";
  const end = (next: LeaseState) => {
    if (state !== "held") return;
    state = next;
    controller.abort(new Error(next));
  };
  let inFlight = false;
  const timer = setInterval(async () => {
    if (inFlight || state !== "held") return;
    inFlight = true;
    try {
      const { owned, cancelRequested } = await renewLease(holder.db, table, id, holder.workerId);
      if (!owned) end("lost");
      else if (cancelRequested) end("cancelRequested");
    } catch {
      // a database blip: the next beat retries; if it lasts past the lease, recovery takes over
    } finally {
      inFlight = false;
    }
  }, holder.config.heartbeatMs);
  // a CLI import must be able to exit once its work is done
  timer.unref();
  const onShutdown = () => end("shutdown");
  holder.shutdownSignal?.addEventListener("abort", onShutdown, { once: true });
  return {
    workerId: holder.workerId,
    signal: controller.signal,
    state: () => state,
    stop() {
      clearInterval(timer);
      holder.shutdownSignal?.removeEventListener("abort", onShutdown);
    },
  };
}
