import { readFile, stat } from "node:fs/promises";
import { AppError } from "../../errors/app-error";
import { formatBytes } from "./json-records";

/** Reports and logs are read whole; past this size they are refused with a clear reason. */
export const MAX_SMALL_DOCUMENT_BYTES = 64 * 1024 * 1024;

export async function readSmallFile(filePath: string, what: string): Promise<string> {
  const { size } = await stat(filePath);
  if (size > MAX_SMALL_DOCUMENT_BYTES)
    throw new AppError(
      "UNPROCESSABLE",
      `This ${what} is ${formatBytes(size)}; the limit is ${formatBytes(MAX_SMALL_DOCUMENT_BYTES)}`,
    );
  const text = (await readFile(filePath)).toString("utf8");
  return text.replace(/^\uFEFF/, "");
}
