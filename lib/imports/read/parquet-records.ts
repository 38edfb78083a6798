import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
  type AsyncBuffer,
  type FileMetaData,
} from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { AppError } from "../../errors/app-error";
import { bigintToJson } from "../../json/bigint-json";

// Rows of a Parquet file (the form SWE-bench, SWE-Gym, SWE-smith, SWE-rebench and R2E-Gym
// publish on dataset hubs) as records for the same importers as JSONL. Read with hyparquet
// (the reader companion of the hyparquet-writer our exports use; pure JS, with
// hyparquet-compressors for zstd/gzip/brotli/lz4 besides its own snappy), one row group at
// a time, so memory is bounded by the largest row group, not the file.

/** `through`: the rows of the file accounted for once this one is (a broken row group accounts for all of its rows) */
export type ParquetRow =
  | { line: number; value: unknown; bytes: number; through: number }
  | { line: number; error: string; bytes: number; through: number };

export type ParquetSource = { file: AsyncBuffer; metadata: FileMetaData; columns: string[]; rows: number };

/** The footer: row groups and the top-level column names that decide the format. */
export async function openParquet(filePath: string): Promise<ParquetSource> {
  const file = await asyncBufferFromFile(filePath);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    throw new AppError(
      "UNPROCESSABLE",
      `The Parquet file's footer could not be read (${(error as Error).message}); was the file truncated?`,
    );
  }
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  return { file, metadata, columns, rows: Number(metadata.num_rows) };
}

/** Parquet values as JSON would carry them: int64 as numbers (or strings past 2^53), dates as ISO text, bytes as text. */
export function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return bigintToJson(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (inner !== undefined) out[key] = jsonValue(inner);
    return out;
  }
  return value;
}

/**
 * Yields every row from `startRow` on (earlier rows were imported by an earlier attempt),
 * numbered from 1 like lines. A row group that cannot be decoded is one error naming its
 * rows; the other groups still import.
 */
export async function* readParquetRecords(source: ParquetSource, startRow = 0): AsyncGenerator<ParquetRow> {
  let groupStart = 0;
  for (const [index, group] of source.metadata.row_groups.entries()) {
    const count = Number(group.num_rows);
    const groupEnd = groupStart + count;
    if (groupEnd > startRow && count > 0) {
      const rowStart = Math.max(groupStart, startRow);
      const bytesPerRow = Math.ceil(Number(group.total_byte_size) / count);
      let rows: Record<string, unknown>[] | null = null;
      try {
        rows = await parquetReadObjects({
          file: source.file,
          metadata: source.metadata,
          rowStart,
          rowEnd: groupEnd,
          compressors,
        });
      } catch (error) {
        yield {
          line: rowStart + 1,
          through: groupEnd,
          bytes: 0,
          error: `rows ${rowStart + 1}–${groupEnd} (row group ${index + 1}) could not be decoded: ${(error as Error).message}`,
        };
      }
      if (rows) {
        for (const [offset, row] of rows.entries())
          yield {
            line: rowStart + offset + 1,
            through: rowStart + offset + 1,
            value: jsonValue(row),
            bytes: bytesPerRow,
          };
        rows = null;
      }
    }
    groupStart = groupEnd;
  }
}
