import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db, PrismaClient } from "../../db/client";
import type { ImportRun } from "../import-run";
import type { WriteResult } from "../import-records";
import type { StepRecord, TrajectoryHeader } from "../records/trajectory-record";
import { canonicalJson } from "./compare";
import { contentKey, writeTrajectory, writeTrajectoryIn, type StepSink } from "./write-trajectory";

// What the trajectory formats share on their way to writeTrajectory. A single-run file (.traj,
// mini-swe-agent .traj.json, an OpenHands event array) is keyed by what it is — its instance and
// model or run, else its bytes' hash — never by where it lies, so the same file from two
// folders is one trajectory. Runs inside a file (Inspect samples, OpenHands output.jsonl
// lines, R2E-Gym records) have their own ids.

export const hashOf = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");

/** The file a single run is read from (a format's context, as much of it as writing needs). */
export type SingleRunFile = {
  db: PrismaClient;
  run: ImportRun;
  filePath: string;
  fileName: string;
  options: { generator?: string };
  /** a fresh stream of the file's bytes that also advances the batch's progress */
  openStream(): Readable;
};

/** Reads the run from the bytes, handing each step to the sink; returns its header. */
export type ReadRun = (source: Readable, sink: StepSink) => Promise<TrajectoryHeader>;

/** the key versions before content keys gave a single-run file; a row under it is adopted */
const legacyFileKey = (file: SingleRunFile, prefix: string) =>
  [prefix, file.options.generator, file.fileName.split(path.sep).join("/")].filter(Boolean).join(":");

/** The file's bytes, hashed on the way through (a pass that is not counted as import progress). */
function hashedStream(filePath: string, hash: Hash): Readable {
  async function* chunks() {
    for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * A file holding one run: a first pass reads its header (the key needs the instance and the
 * model, which a .traj gives at its end) and hashes it, dropping the steps; the second
 * streams the steps into the database. Memory holds one step at a time either way.
 */
export async function writeSingleRunFile(file: SingleRunFile, prefix: string, read: ReadRun) {
  const hash = createHash("sha256");
  let steps = 0;
  const header = await read(hashedStream(file.filePath, hash), { add: async () => void steps++ });
  const sourceHash = hash.digest("hex");
  const externalId = contentKey(prefix, header, sourceHash);
  const outcome = await writeTrajectory(
    file.db,
    {
      externalId,
      legacyExternalIds: [legacyFileKey(file, prefix)],
      sourceHash,
      produce: (sink) => read(file.openStream(), sink),
    },
    file.run,
  );
  file.run.count(outcome);
  return steps;
}

export async function addAll(sink: StepSink, steps: StepRecord[], header: TrajectoryHeader) {
  for (const step of steps) await sink.add(step);
  return header;
}

/** One run read whole from a record (an OpenHands output.jsonl line, an R2E-Gym record). */
export type TrajectoryLine = { externalId: string; sourceHash: string; header: TrajectoryHeader; steps: StepRecord[] };

/** Writes a batch of record runs in one transaction. */
export async function writeTrajectoryLines(tx: Db, lines: TrajectoryLine[], run: ImportRun): Promise<WriteResult[]> {
  const results: WriteResult[] = [];
  for (const line of lines) {
    results.push(
      await writeTrajectoryIn(
        tx,
        {
          externalId: line.externalId,
          sourceHash: line.sourceHash,
          produce: (sink) => addAll(sink, line.steps, line.header),
        },
        run,
      ),
    );
  }
  return results;
}
