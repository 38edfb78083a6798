import type { Readable } from "node:stream";
import type { ImportFormat, PrismaClient, TaskSource } from "../../db/client";
import type { JsonShape } from "../read/json-shape";
import type { RecordImporter } from "../import-records";
import type { ImportRun } from "../import-run";
import type { ChooseGenerator } from "../user-generator";

// What a format declares in its folder's index.ts, and what its importers are handed. The
// pipeline (import-context.ts) builds on FormatContext, so a format never imports the pipeline
// that walks it; registry.ts lists the declarations in the order detection tries them.

/** The options of an import that change what a format makes of a file. */
export type FormatOptions = {
  maxRecordBytes?: number;
  /** the dataset, when the rows do not say (SWE-Gym rows look exactly like SWE-bench's) */
  source?: TaskSource;
  /** the generator (model_name_or_path) of trajectories and harness reports that do not name it */
  generator?: string;
  /** the task of a trajectory, report or log that does not name it */
  instanceId?: string;
};

/** The file a format's importer reads and the batch it accounts to. */
export type FormatContext = {
  db: PrismaClient;
  filePath: string;
  fileName: string;
  options: FormatOptions;
  run: ImportRun;
  /** a fresh stream of the file's bytes that also advances the batch's progress */
  openStream(): Readable;
};

/**
 * How a file of this format is recognised. detect-format.ts walks the registry once per
 * question, in order — zip, then document, then record, then text — so within each question
 * the first format that says yes wins.
 */
export type FormatDetector = {
  /** a zip that is one document of this format, from the member names in its first bytes and the file's (lower-case) name */
  zip?: (memberNames: string[], fileName: string) => boolean;
  /** a whole JSON value that is one document of this format: an object by its keys and those one level down, an array or JSON lines by their elements' */
  document?: (shape: JsonShape) => boolean;
  /** one independent record of this format, by its keys (a JSONL line, an array element, a Parquet row's columns) */
  record?: (keys: Set<string>) => boolean;
  /** one JSON object whose members, keyed by instance id, are records of this format */
  keyedByInstance?: boolean;
  /** a plain-text file of this format, from its first bytes and (lower-case) name */
  text?: (text: string, fileName: string) => boolean;
};

/** Imports one whole file of a format (a document, a text log). */
export type ImportWhole = (ctx: FormatContext) => Promise<void>;

export type FormatDeclaration = {
  /** the ImportFormat its batches record */
  format: ImportFormat;
  detect: FormatDetector;
  /** a file of independent records: how each is parsed and a batch of them written (the user's generator wins) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each importer has its own record type
  records?: (ctx: FormatContext, chooseGenerator: ChooseGenerator) => RecordImporter<any>;
  /** a file that is one document (one JSON value, or a zip of one); a record of a format without `records` is one too */
  document?: ImportWhole;
  /** a plain-text file */
  text?: ImportWhole;
};

/** Whether `keys` holds any of `names`. */
export const hasAny = (keys: Set<string> | undefined, ...names: string[]) => !!keys && names.some((n) => keys.has(n));
