import type { Db } from "../db/client";
import type { LeasedTable } from "./row-lease";

export type EnqueueRowOptions = { jobKey: string; delayMs?: number };

/**
 * What the worker runtime knows of a job that works a leased row. Each job declares its own
 * beside its code (lib/builds/build-job.ts, lib/runs/validation-job.ts,
 * lib/imports/import-lease.ts): its payload, its key and what its row clears, so the runtime
 * requeues and recovers rows without knowing any job.
 */
export type LeasedJob = {
  table: LeasedTable;
  /** the row's audit entity: its requeues are its history */
  auditEntity: string;
  /** what a requeue clears besides the lease (SQL assignments, each ending in a comma) */
  requeueResets: string;
  jobKey(id: string): string;
  /** puts the row's job on the queue with its own payload (re-enqueueing the same key replaces) */
  enqueue(db: Db, id: string, options: EnqueueRowOptions): Promise<unknown>;
};

/** A job whose rows lease recovery takes back when their worker dies (builds and runs; imports recover their own way). */
export type RecoverableJob = LeasedJob & {
  /** what a row cancelled by recovery clears (SQL assignments, each ending in a comma) */
  cancelResets: string;
  /** what a row given up on by recovery clears and sets (SQL assignments, each ending in a comma) */
  failResets: string;
  /** called in the transaction that marked the row FAILED */
  afterGaveUp?: (tx: Db, id: string) => Promise<unknown>;
};
