"use client";
import { useEffect, useRef, useState } from "react";
import { ensureMonaco } from "./monaco-setup";

/** How far below the viewport an editor starts loading Monaco, so it is ready when scrolled to. */
const LOAD_MARGIN = "200px";

/**
 * true once the locally bundled Monaco is configured (never the CDN). Monaco (several MB)
 * loads only when the element behind `ref` comes near the viewport, so a page whose editors
 * are below the fold shows its content without waiting for it.
 */
export function useMonacoReady<E extends Element = HTMLDivElement>(): {
  ready: boolean;
  error: Error | null;
  ref: React.RefObject<E | null>;
} {
  const ref = useRef<E>(null);
  const [state, setState] = useState<{ ready: boolean; error: Error | null }>({ ready: false, error: null });
  useEffect(() => {
    let live = true;
    const load = () =>
      ensureMonaco().then(
        () => live && setState({ ready: true, error: null }),
        (error: Error) => live && setState({ ready: false, error }),
      );
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      void load();
      return () => {
        live = false;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void load();
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, []);
  return { ...state, ref };
}

const LINE_HEIGHT = 19;

/** An editor's height for its text: every line shown, between a floor and a ceiling (then it scrolls). */
export function heightForLines(lineCount: number, { min = 96, max = 560, padding = 2 } = {}): number {
  return Math.min(max, Math.max(min, (lineCount + padding) * LINE_HEIGHT));
}
