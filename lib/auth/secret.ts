import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

// NEXTAUTH_SECRET signs session cookies. When the operator gives none, one is generated
// once and kept under .data/ so sessions survive a restart.
export function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(process.env.SWE_CURATOR_DATA_DIR ?? path.join(process.cwd(), ".data"), "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  process.env.NEXTAUTH_SECRET = readFileSync(file, "utf8").trim();
  return process.env.NEXTAUTH_SECRET;
}
