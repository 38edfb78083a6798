"use client";
import { useEffect, useRef } from "react";

export type Shortcut = { key: string; description: string; run: () => void };

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  // Monaco's editing surface is a textarea too, so typing code never triggers a shortcut
  return (
    el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) || !!el.closest?.(".monaco-editor")
  );
}

/** Single-key shortcuts for the page, ignored while the user types in a field or an editor. */
export function useShortcuts(shortcuts: Shortcut[], enabled = true) {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingInto(event.target)) return;
      if (document.querySelector("dialog[open]") && event.key !== "?") return;
      const shortcut = latest.current.find((s) => s.key === event.key);
      if (!shortcut) return;
      event.preventDefault();
      shortcut.run();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
