import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { describeError, RecordRejected, type RecordImporter } from "../../import-records";
import { readDocumentParts } from "../../read/json-document";
import { parseRecordJson, readJsonRecords } from "../../read/json-records";
import type { StepRecord } from "../../records/trajectory-record";
import { generatorChooser, generatorOfFile, type ChooseGenerator } from "../../user-generator";
import { instanceFromFileName } from "../../write/find-instance";
import { hashOf, writeSingleRunFile, writeTrajectoryLines, type TrajectoryLine } from "../../write/trajectory-files";
import type { FormatContext } from "../format";
import { OpenHandsStepper, openHandsHeader, openHandsOutputLine } from "./map";

// OpenHands comes two ways: one run per file (an event array, the SDK's events.jsonl), keyed
// by content; or a run per record (evaluation output.jsonl, SWE-Gym's sampled trajectories).

/** The events of one OpenHands run: a JSON array's elements, or the SDK's events.jsonl, an event a line (with its line number). */
async function* openHandsEvents(
  ctx: FormatContext,
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

/** The file's first character that is not white space (or a byte-order mark). */
async function firstByte(filePath: string): Promise<string | null> {
  for await (const chunk of createReadStream(filePath, { start: 0, end: 4095, encoding: "utf8" })) {
    const found = (chunk as string).replace(/^\uFEFF/, "").match(/\S/);
    if (found) return found[0];
  }
  return null;
}

export async function importOpenHandsEvents(ctx: FormatContext) {
  const instanceId = ctx.options.instanceId ?? (await instanceFromFileName(ctx.db, ctx.fileName));
  const jsonl = (await firstByte(ctx.filePath)) !== "[";
  const chooseGenerator = generatorChooser(ctx.run, ctx.options.generator);
  await writeSingleRunFile(ctx, "openhands", async (source, sink) => {
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

/** OpenHands evaluation output.jsonl (one run per line) and SWE-Gym's sampled-trajectory rows; the user's generator wins. */
export function openHandsOutputImporter(
  chooseGenerator: ChooseGenerator = generatorOfFile,
): RecordImporter<TrajectoryLine> {
  return {
    format: "OPENHANDS_TRAJECTORY",
    parse(value) {
      const { externalId, header, steps } = openHandsOutputLine(value, chooseGenerator);
      return { externalId, sourceHash: hashOf(value), header, steps };
    },
    key: (line) => line.externalId,
    write: writeTrajectoryLines,
    batchSize: 20,
  };
}
