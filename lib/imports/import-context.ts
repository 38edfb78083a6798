import type { Readable } from "node:stream";
import type { PrismaClient, TaskSource } from "../db/client";
import type { Lease } from "../worker-runtime/row-lease";
import type { ImportRun } from "./import-run";

// What every importer is handed: the file, the batch's run and how to read or nest. Its own
// file so the importers (importers.ts, documents/) and importFile, which calls them, do not
// import each other.

export type ImportOptions = {
  actorId?: string | null;
  /** the name recorded on the batch and used in natural keys of single-document formats (default: the file's base name) */
  fileName?: string;
  /** continue an ImportBatch row created earlier (an upload creates it before the bytes arrive) */
  batchId?: string;
  maxRecordBytes?: number;
  /** the dataset, when the rows do not say (SWE-Gym rows look exactly like SWE-bench's) */
  source?: TaskSource;
  /** the generator (model_name_or_path) of trajectories and harness reports that do not name it */
  generator?: string;
  /** the task of a trajectory, report or log that does not name it */
  instanceId?: string;
  onProgress?: (run: ImportRun) => void;
  /** the lease a worker holds on the batch (a queued upload); without one this process leases the batch itself */
  lease?: Lease;
};

export type ImportContext = {
  db: PrismaClient;
  filePath: string;
  fileName: string;
  options: ImportOptions;
  run: ImportRun;
  /** a fresh stream of the file's bytes that also advances the batch's progress */
  openStream(): Readable;
  sha256(): Promise<string>;
  /** imports another file (inside a folder or archive) into the same batch */
  importNested(filePath: string, fileName: string): Promise<void>;
  /** a file inside a folder or archive: no checkpoints (the folder restarts as a whole) */
  nested: boolean;
};
