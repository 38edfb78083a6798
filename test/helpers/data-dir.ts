import { mkdirSync, mkdtempSync } from "node:fs";
import path from "node:path";

const DATA_ROOT = path.resolve(import.meta.dirname, "../../.data");

/** A fresh folder under the git-ignored .data/ (which a new clone does not have yet). */
export function makeDataDir(prefix: string): string {
  mkdirSync(DATA_ROOT, { recursive: true });
  return mkdtempSync(path.join(DATA_ROOT, prefix));
}
