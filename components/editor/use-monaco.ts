"use client";
import { useEffect, useState } from "react";
import { ensureMonaco } from "./monaco-setup";

/** true once the locally bundled Monaco is configured (never the CDN). */
export function useMonacoReady(): { ready: boolean; error: Error | null } {
  const [state, setState] = useState<{ ready: boolean; error: Error | null }>({ ready: false, error: null });
  useEffect(() => {
    let live = true;
    ensureMonaco().then(
      () => live && setState({ ready: true, error: null }),
      (error: Error) => live && setState({ ready: false, error }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
