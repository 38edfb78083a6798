import type { Db } from "../db/client";
import type { JobType } from "../jobs/job-type";
import type { LeasedTable } from "./row-lease";

/**
 * What the worker runtime knows of a job that works a leased row. Each job declares its own
 * beside its code (lib/builds/build-job.ts, lib/runs/validation-job.ts,
 * lib/imports/import-lease.ts): its queue job (whose key ties it to the row), the payload a row's
 * job carries and what its row clears, so the runtime requeues and recovers rows without knowing any job.
 */
export type LeasedJob<Payload = unknown> = {
  job: JobType<Payload>;
  /** the payload of the row's job */
  payloadFor(id: string): Payload;
  /** the image the row's job runs in, when a worker holding it should claim it first */
  imageHashOf?(db: Db, id: string): Promise<string | null>;
  table: LeasedTable;
  /** the row's audit entity: its requeues are its history */
  auditEntity: string;
  /** what a requeue clears besides the lease (SQL assignments, each ending in a comma) */
  requeueResets: string;
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
