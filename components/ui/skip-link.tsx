"use client";

/** The element a page marks as where its content starts for keyboard users (a list marks its first row). */
export const SKIP_TARGET = "data-skip-target";
export const MAIN_ID = "main-content";

/**
 * The first Tab stop of every page: Enter moves focus past the navigation, to the page's
 * marked start (the first row of a list) or else to the main region. Without JavaScript
 * the link still jumps to the main region.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        const target = document.querySelector<HTMLElement>(`[${SKIP_TARGET}]`) ?? document.getElementById(MAIN_ID);
        if (!target) return;
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: "nearest" });
      }}
      className="sr-only z-50 rounded bg-blue-800 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to main content
    </a>
  );
}
