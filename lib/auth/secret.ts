import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { serverConfig } from "../config/server-config";

// NEXTAUTH_SECRET signs session cookies. When the operator gives none, one is generated
// once and kept under .data/ so sessions survive a restart.
const generatedSecrets = new Map<string, string>();

export function authSecret(): string {
  const { NEXTAUTH_SECRET, SWE_CURATOR_DATA_DIR } = serverConfig();
  if (NEXTAUTH_SECRET) return NEXTAUTH_SECRET;
  const file = path.join(SWE_CURATOR_DATA_DIR ?? path.join(process.cwd(), ".data"), "auth-secret");
  const known = generatedSecrets.get(file);
  if (known) return known;
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  const secret = readFileSync(file, "utf8").trim();
  generatedSecrets.set(file, secret);
  return secret;
}
