import { ParquetWriter, fileWriter } from "hyparquet-writer";
import type { Db } from "../db/client";
import type { TaskFilters } from "../tasks/task-filters";
import { exportRows, type RowOptions } from "./export-tasks";
import { PROVENANCE_KEY, SWE_BENCH_FIELDS } from "./swe-bench-row";

// The same export as Parquet, in the Hugging Face SWE-bench layout: every column a string,
// FAIL_TO_PASS / PASS_TO_PASS JSON-encoded, our provenance as a JSON string. Written one
// row group per page of tasks to a file (Parquet's footer needs the whole file, so it is
// never streamed to stdout), memory bounded by one page.

export const PARQUET_COLUMNS = [...SWE_BENCH_FIELDS, PROVENANCE_KEY] as const;

const schema = [
  { name: "root", num_children: PARQUET_COLUMNS.length },
  ...PARQUET_COLUMNS.map((name) => ({
    name,
    type: "BYTE_ARRAY" as const,
    converted_type: "UTF8" as const,
    repetition_type: "OPTIONAL" as const,
  })),
];

const asText = (value: unknown) =>
  value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);

export async function exportParquet(
  db: Db,
  filters: TaskFilters,
  filePath: string,
  options: Pick<RowOptions, "actorId" | "blind" | "provenance" | "release" | "plan"> & {
    onProgress?: (exported: number) => void;
  } = {},
) {
  const writer = new ParquetWriter({ writer: fileWriter(filePath), schema });
  let exported = 0;
  for await (const rows of exportRows(db, filters, {
    ...options,
    testLists: "json-string",
    provenance: options.provenance ?? true,
  })) {
    if (!rows.length) continue;
    await writer.write({
      columnData: PARQUET_COLUMNS.map((name) => ({ name, data: rows.map((row) => asText(row[name])) })),
    });
    exported += rows.length;
    options.onProgress?.(exported);
  }
  writer.finish();
  return exported;
}
