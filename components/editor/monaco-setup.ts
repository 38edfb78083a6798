"use client";
import { loader } from "@monaco-editor/react";

// @monaco-editor/react fetches Monaco from a CDN by default; this machine (and many
// curators' networks) cannot reach one. Monaco is bundled from node_modules instead and its
// web worker is served from our own origin, so no request leaves the machine.

/** Monaco's light theme with the colours that fail WCAG AA contrast on white made darker. */
export const LIGHT_THEME = "swe-curator-light";

let ready: Promise<void> | undefined;

export function ensureMonaco(): Promise<void> {
  ready ??= (async () => {
    (self as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
      getWorker: () =>
        new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
    };
    const monaco = await import("monaco-editor");
    // "vs" draws shell flags and HTML attribute names in #ff0000 (3.99:1 on white); #b91c1c is 6.5:1
    monaco.editor.defineTheme(LIGHT_THEME, {
      base: "vs",
      inherit: true,
      rules: [{ token: "attribute.name", foreground: "b91c1c" }],
      colors: {},
    });
    loader.config({ monaco });
  })();
  return ready;
}
