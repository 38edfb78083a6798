import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PROJECT_ROOT } from "../lib/db/schema-engine";

export const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");

const SOURCE_ROOTS = ["app", "components", "lib", "public", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json", "prisma/schema.prisma"];
const STAMP = path.join(PROJECT_ROOT, ".next", "swe-curator-sources.sha1");

function* files(entry: string): Generator<string> {
  const full = path.join(PROJECT_ROOT, entry);
  if (!existsSync(full)) return;
  const stat = statSync(full);
  if (stat.isFile()) return yield entry;
  for (const child of readdirSync(full).sort()) {
    if (child === "generated" || child === "node_modules") continue;
    yield* files(path.join(entry, child));
  }
}

/** A cheap fingerprint of what the production build depends on (paths, sizes, mtimes). */
export function sourcesFingerprint(): string {
  const hash = createHash("sha1");
  for (const root of SOURCE_ROOTS) {
    for (const file of files(root)) {
      const stat = statSync(path.join(PROJECT_ROOT, file));
      hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest("hex");
}

/** Runs `next build` when there is no build yet or the sources changed since the last one. */
export async function ensureProductionBuild() {
  const fingerprint = sourcesFingerprint();
  const built = existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID")) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === fingerprint;
  if (built) return;
  console.log("[start] building the web app for production (first start, or sources changed; about a minute)…");
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: PROJECT_ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  writeFileSync(STAMP, fingerprint);
}
