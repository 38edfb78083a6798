import type { Lease } from "../worker-runtime/row-lease";
import type { FormatContext, FormatOptions } from "./formats/format";
import type { ImportRun } from "./import-run";

// What every importer is handed: the file, the batch's run and how to read or nest. Its own
// file so the importers (importers.ts, documents/) and importFile, which calls them, do not
// import each other. A format's importers see only its FormatContext part (formats/format.ts).

export type ImportOptions = FormatOptions & {
  actorId?: string | null;
  /** the name recorded on the batch and used in natural keys of single-document formats (default: the file's base name) */
  fileName?: string;
  /** continue an ImportBatch row created earlier (an upload creates it before the bytes arrive) */
  batchId?: string;
  onProgress?: (run: ImportRun) => void;
  /** the lease a worker holds on the batch (a queued upload); without one this process leases the batch itself */
  lease?: Lease;
};

export type ImportContext = FormatContext & {
  options: ImportOptions;
  sha256(): Promise<string>;
  /** imports another file (inside a folder or archive) into the same batch */
  importNested(filePath: string, fileName: string): Promise<void>;
  /** a file inside a folder or archive: no checkpoints (the folder restarts as a whole) */
  nested: boolean;
};
