import { createHash } from "node:crypto";
import { z } from "zod";
import { serverConfig, type ServerConfig } from "../config/server-config";

/** Environment.contextFiles: path inside the build context → file content. */
export const ContextFilesSchema = z
  .record(z.string().min(1), z.string())
  .nullish()
  .transform((files) => files ?? {});
export type ContextFiles = z.infer<typeof ContextFilesSchema>;

export type BuildContext = { dockerfile: string; contextFiles: ContextFiles; buildArgs: Record<string, string> };

/**
 * The image key: Dockerfile + context files + build args, never the eval script, so an
 * eval-script-only edit reuses the image. Order-independent and unambiguous (lengths are
 * hashed with the bytes, so no two different contexts concatenate alike).
 */
export function buildContextHash(context: BuildContext): string {
  const hash = createHash("sha256");
  const field = (text: string) => hash.update(`${Buffer.byteLength(text)}:`).update(text);
  field("dockerfile");
  field(context.dockerfile);
  for (const path of Object.keys(context.contextFiles).sort()) {
    field(`file:${path}`);
    field(context.contextFiles[path]);
  }
  for (const name of Object.keys(context.buildArgs).sort()) {
    field(`arg:${name}`);
    field(context.buildArgs[name]);
  }
  return hash.digest("hex");
}

export const IMAGE_REPOSITORY = "swe-curator/env";
export const imageTagFor = (contextHash: string) => `${IMAGE_REPOSITORY}:${contextHash.slice(0, 24)}`;

/** Build args every build gets: BASE_IMAGE lets users with a registry swap in python:3.x. */
export function defaultBuildArgs(config: Pick<ServerConfig, "BASE_IMAGE"> = serverConfig()): Record<string, string> {
  return config.BASE_IMAGE ? { BASE_IMAGE: config.BASE_IMAGE } : {};
}
