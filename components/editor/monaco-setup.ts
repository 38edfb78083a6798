"use client";
import { loader } from "@monaco-editor/react";

// @monaco-editor/react fetches Monaco from a CDN by default; this machine (and many
// curators' networks) cannot reach one. Monaco is bundled from node_modules instead and its
// web worker is served from our own origin, so no request leaves the machine.

let ready: Promise<void> | undefined;

export function ensureMonaco(): Promise<void> {
  ready ??= (async () => {
    (self as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
      getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
    };
    const monaco = await import("monaco-editor");
    loader.config({ monaco });
  })();
  return ready;
}
