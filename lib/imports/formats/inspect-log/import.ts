import { createReadStream } from "node:fs";
import { describeError } from "../../import-records";
import { readDocumentParts } from "../../read/json-document";
import { DEFAULT_MAX_RECORD_BYTES, parseRecordJson } from "../../read/json-records";
import { readZipMembers } from "../../read/zip-members";
import { generatorChooser } from "../../user-generator";
import { writeTrajectory } from "../../write/write-trajectory";
import { addAll, hashOf } from "../../write/trajectory-files";
import type { FormatContext } from "../format";
import { inspectSample, InspectEvalSchema, type InspectEval } from "./map";

// An Inspect log holds many runs: each sample is mapped (./map.ts) and written as its own
// trajectory, in its own transaction.

async function importInspectSample(ctx: FormatContext, value: unknown, evalInfo: InspectEval | null, label: string) {
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

async function startsWithZipMagic(filePath: string) {
  for await (const chunk of createReadStream(filePath, { start: 0, end: 3 }))
    return (chunk as Buffer).equals(ZIP_MAGIC);
  return false;
}

/** Samples are streamed one at a time; each is its own trajectory and transaction. */
export async function importInspectLog(ctx: FormatContext) {
  if (await startsWithZipMagic(ctx.filePath)) return importInspectEvalZip(ctx);
  let evalInfo: InspectEval | null = null;
  for await (const part of readDocumentParts(ctx.openStream(), new Set(["samples"]))) {
    if (part.kind === "member" && part.key === "eval") evalInfo = InspectEvalSchema.parse(part.value);
    if (part.kind === "element" && part.key === "samples")
      await importInspectSample(ctx, part.value, evalInfo, `sample ${part.index + 1}`);
  }
}

/** The members of a .eval that hold its header: header.json, or while the run is going, its journal's start. */
export const EVAL_HEADERS = ["header.json", "_journal/start.json"];
export const isSampleMember = (name: string) => /^samples\/[^/]+\.json$/.test(name);

/** Inspect's native .eval: a zip of header.json (or, while running, _journal/start.json) and one member per sample. */
async function importInspectEvalZip(ctx: FormatContext) {
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
