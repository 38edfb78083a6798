"use client";
import { useEffect, useRef } from "react";

/** Where focus goes back to when a dialog closes: what had it before, else the page's main region. */
function restoreFocus(previous: Element | null) {
  const back =
    previous instanceof HTMLElement && previous !== document.body && previous.isConnected
      ? previous
      : document.querySelector<HTMLElement>("main");
  back?.focus();
}

/**
 * A modal on the native <dialog> element: focus is trapped and Escape closes it, for free;
 * on close, focus returns to where it was (a dialog opened by a shortcut key had focus on
 * the page, and the browser would drop it on the body).
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    if (!open && opener.current) {
      const previous = opener.current;
      opener.current = null;
      restoreFocus(previous);
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-label={title}
      className="m-auto w-full max-w-lg rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex items-center justify-between border-b px-4 py-2">
        <h2 className="font-semibold">{title}</h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="rounded px-2 text-slate-600 hover:bg-slate-100"
        >
          ×
        </button>
      </div>
      <div className="p-4">{open ? children : null}</div>
    </dialog>
  );
}
