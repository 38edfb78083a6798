import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { embeddedPasswordFile } from "../../lib/database-server/database-server";

const DATA_ROOT = path.resolve(import.meta.dirname, "../../.data");

/** A fresh folder under the git-ignored .data/ (which a new clone does not have yet). */
export function makeDataDir(prefix: string): string {
  mkdirSync(DATA_ROOT, { recursive: true });
  return mkdtempSync(path.join(DATA_ROOT, prefix));
}

/** Removes a data folder and the password file the embedded server keeps beside it. */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  rmSync(embeddedPasswordFile(dir), { force: true });
}
