import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ImportContext } from "../import-context";
import { RecordRejected, type RecordImporter, type WriteResult } from "../import-records";
import { readDocumentParts } from "../read/json-document";
import { DEFAULT_MAX_RECORD_BYTES, parseRecordJson, readJsonRecords } from "../read/json-records";
import { readZipMembers } from "../read/zip-members";
import { canonicalJson } from "../write/compare";
import { contentKey, writeTrajectory, writeTrajectoryIn, type StepSink } from "../write/write-trajectory";
import { produceSweAgentTrajectory, type StepsFrom } from "../formats/swe-agent-trajectory/map";
import { OpenHandsStepper, openHandsHeader, openHandsOutputLine } from "../formats/openhands-trajectory/map";
import { inspectSample, InspectEvalSchema, type InspectEval } from "../formats/inspect-log/map";
import { r2eGymRun } from "../formats/r2e-gym-trajectory/map";
import type { StepRecord, TrajectoryHeader } from "../records/trajectory-record";
import { describeError } from "../import-records";
import { instanceFromFileName } from "../write/find-instance";
import type { Db } from "../../db/client";
import type { ImportRun } from "../import-run";
import { generatorChooser, generatorOfFile, type ChooseGenerator } from "../user-generator";

// Agent trajectories. A single-run file (.traj, mini-swe-agent .traj.json, an OpenHands
// event array) is keyed by what it is — its instance and model or run, else its bytes'
// hash — never by where it lies, so the same file from two folders is one trajectory.
// Runs inside a file (Inspect samples, OpenHands output.jsonl lines, R2E-Gym records) have their own ids.

const hashOf = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");
/** the key versions before content keys gave a single-run file; a row under it is adopted */
const legacyFileKey = (ctx: ImportContext, prefix: string) =>
  [prefix, ctx.options.generator, ctx.fileName.split(path.sep).join("/")].filter(Boolean).join(":");

type ReadRun = (source: Readable, sink: StepSink) => Promise<TrajectoryHeader>;

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
async function importSingleRun(ctx: ImportContext, prefix: string, read: ReadRun) {
  const hash = createHash("sha256");
  let steps = 0;
  const header = await read(hashedStream(ctx.filePath, hash), { add: async () => void steps++ });
  const sourceHash = hash.digest("hex");
  const externalId = contentKey(prefix, header, sourceHash);
  const outcome = await writeTrajectory(
    ctx.db,
    {
      externalId,
      legacyExternalIds: [legacyFileKey(ctx, prefix)],
      sourceHash,
      produce: (sink) => read(ctx.openStream(), sink),
    },
    ctx.run,
  );
  ctx.run.count(outcome);
  return steps;
}

export async function importSweAgentDocument(ctx: ImportContext) {
  const { options, fileName } = ctx;
  const chooseGenerator = generatorChooser(ctx.run, options.generator);
  const withOptions = (header: TrajectoryHeader) => {
    const instanceId = options.instanceId ?? header.instanceId;
    return { ...header, instanceId, generator: chooseGenerator(header.model, instanceId ?? fileName) };
  };
  // a first look decides which list holds the steps: `trajectory` when it has any, else the chat
  let stepsFrom: StepsFrom = "trajectory";
  await importSingleRun(ctx, "swe-agent", async (source, sink) => {
    let counted = 0;
    const header = await produceSweAgentTrajectory(
      source,
      fileName,
      { add: async (step) => void (counted++, await sink.add(step)) },
      stepsFrom,
    );
    if (stepsFrom === "trajectory" && counted === 0) stepsFrom = "history"; // the first pass ran on `trajectory` and found none
    return withOptions(header);
  });
}

/** The events of one OpenHands run: a JSON array's elements, or the SDK's events.jsonl, an event a line (with its line number). */
async function* openHandsEvents(
  ctx: ImportContext,
  source: Readable,
  jsonl: boolean,
): AsyncGenerator<{ event: unknown; line: number | null }> {
  if (!jsonl) {
    for await (const part of readDocumentParts(source))
      if (part.kind === "element") yield { event: part.value, line: null };
    return;
  }
  for await (const record of readJsonRecords(source, { layout: "jsonl", maxRecordBytes: ctx.options.maxRecordBytes })) {
    const parsed = "text" in record ? parseRecordJson(record.text) : record;
    if ("error" in parsed)
      throw new RecordRejected(
        `line ${record.line}: ${parsed.error}; fix or remove that line and import the file again`,
      );
    yield { event: parsed.value, line: record.line };
  }
}

export async function importOpenHandsEvents(ctx: ImportContext) {
  const instanceId = ctx.options.instanceId ?? (await instanceFromFileName(ctx.db, ctx.fileName));
  const jsonl = (await firstByte(ctx.filePath)) !== "[";
  const chooseGenerator = generatorChooser(ctx.run, ctx.options.generator);
  await importSingleRun(ctx, "openhands", async (source, sink) => {
    const stepper = new OpenHandsStepper();
    for await (const { event, line } of openHandsEvents(ctx, source, jsonl)) {
      let steps: StepRecord[];
      try {
        steps = stepper.add(event);
      } catch (error) {
        throw line === null ? error : new RecordRejected(`line ${line}: ${describeError(error)}`);
      }
      for (const step of steps) await sink.add(step);
    }
    for (const step of stepper.finish()) await sink.add(step);
    return {
      ...openHandsHeader(stepper, { instanceId }),
      generator: chooseGenerator(stepper.model, instanceId ?? ctx.fileName),
    };
  });
}

async function importInspectSample(ctx: ImportContext, value: unknown, evalInfo: InspectEval | null, label: string) {
  await ctx.run.checkCancelled();
  try {
    const sample = inspectSample(value, evalInfo, ctx.fileName);
    const header = {
      ...sample.header,
      generator: generatorChooser(ctx.run, ctx.options.generator)(
        sample.header.model,
        sample.header.instanceId ?? label,
      ),
    };
    // the sample's key does not hold the generator: a generator the user gives over the file's model makes it another source, so it is written
    const sourceHash = hashOf(header.generator === sample.header.model ? value : [value, header.generator]);
    const outcome = await writeTrajectory(
      ctx.db,
      { externalId: sample.externalId, sourceHash, produce: (sink) => addAll(sink, sample.steps, header) },
      ctx.run,
    );
    ctx.run.count(outcome);
  } catch (error) {
    ctx.run.fail({ line: null, key: label, reason: describeError(error) });
  }
  await ctx.run.progress();
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** The file's first character that is not white space (or a byte-order mark). */
async function firstByte(filePath: string): Promise<string | null> {
  for await (const chunk of createReadStream(filePath, { start: 0, end: 4095, encoding: "utf8" })) {
    const found = (chunk as string).replace(/^\uFEFF/, "").match(/\S/);
    if (found) return found[0];
  }
  return null;
}

async function startsWithZipMagic(filePath: string) {
  for await (const chunk of createReadStream(filePath, { start: 0, end: 3 }))
    return (chunk as Buffer).equals(ZIP_MAGIC);
  return false;
}

/** Samples are streamed one at a time; each is its own trajectory and transaction. */
export async function importInspectLog(ctx: ImportContext) {
  if (await startsWithZipMagic(ctx.filePath)) return importInspectEvalZip(ctx);
  let evalInfo: InspectEval | null = null;
  for await (const part of readDocumentParts(ctx.openStream(), new Set(["samples"]))) {
    if (part.kind === "member" && part.key === "eval") evalInfo = InspectEvalSchema.parse(part.value);
    if (part.kind === "element" && part.key === "samples")
      await importInspectSample(ctx, part.value, evalInfo, `sample ${part.index + 1}`);
  }
}

const EVAL_HEADERS = ["header.json", "_journal/start.json"];
const isSampleMember = (name: string) => /^samples\/[^/]+\.json$/.test(name);

/** Inspect's native .eval: a zip of header.json (or, while running, _journal/start.json) and one member per sample. */
async function importInspectEvalZip(ctx: ImportContext) {
  const maxBytes = ctx.options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  let evalInfo: InspectEval | null = null;
  // the header lies at the end of the zip, the samples before it: read the header first
  for await (const member of readZipMembers(
    ctx.filePath,
    (name) => EVAL_HEADERS.includes(name),
    maxBytes,
    (a, b) => EVAL_HEADERS.indexOf(a) - EVAL_HEADERS.indexOf(b),
  )) {
    const parsed = "text" in member ? parseRecordJson(member.text) : member;
    if ("value" in parsed) {
      evalInfo = InspectEvalSchema.parse((parsed.value as { eval?: unknown }).eval ?? {});
      break;
    }
  }
  for await (const member of readZipMembers(ctx.filePath, isSampleMember, maxBytes)) {
    ctx.run.bytesRead += member.compressedBytes;
    const parsed = "text" in member ? parseRecordJson(member.text) : member;
    if ("error" in parsed) {
      ctx.run.fail({ line: null, key: member.name, reason: parsed.error });
      continue;
    }
    await importInspectSample(ctx, parsed.value, evalInfo, member.name);
  }
}

async function addAll(sink: StepSink, steps: StepRecord[], header: TrajectoryHeader) {
  for (const step of steps) await sink.add(step);
  return header;
}

type OpenHandsLine = { externalId: string; sourceHash: string; header: TrajectoryHeader; steps: StepRecord[] };

async function writeRuns(tx: Db, lines: OpenHandsLine[], run: ImportRun): Promise<WriteResult[]> {
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

/** OpenHands evaluation output.jsonl (one run per line) and SWE-Gym's sampled-trajectory rows; the user's generator wins. */
export function openHandsOutputImporter(
  chooseGenerator: ChooseGenerator = generatorOfFile,
): RecordImporter<OpenHandsLine> {
  return {
    format: "OPENHANDS_TRAJECTORY",
    parse(value) {
      const { externalId, header, steps } = openHandsOutputLine(value, chooseGenerator);
      return { externalId, sourceHash: hashOf(value), header, steps };
    },
    key: (line) => line.externalId,
    write: writeRuns,
    batchSize: 20,
  };
}

type R2EGymLine = OpenHandsLine;

/** R2E-Gym trajectories: a run per JSONL line (or one record in a .json file); `--generator` names the run. */
export function r2eGymImporter(chooseGenerator: ChooseGenerator = generatorOfFile): RecordImporter<R2EGymLine> {
  return {
    format: "R2E_GYM_TRAJECTORY",
    parse(value) {
      const sourceHash = hashOf(value);
      return { sourceHash, ...r2eGymRun(value, sourceHash, chooseGenerator) };
    },
    key: (line) => line.externalId,
    write: writeRuns,
    batchSize: 20,
  };
}
