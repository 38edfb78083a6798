"use client";
import { Dialog } from "@/components/ui/dialog";
import type { Shortcut } from "./use-shortcuts";

/** The "?" dialog: every key the page answers to. */
export function ShortcutHelp({
  open,
  onClose,
  shortcuts,
}: {
  open: boolean;
  onClose: () => void;
  shortcuts: Shortcut[];
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[3rem_1fr] gap-y-1 text-sm" data-testid="shortcut-help">
        {shortcuts.map((s) => (
          <div key={s.key} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono">{s.key}</kbd>
            </dt>
            <dd>{s.description}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        Shortcuts are off while you type in a field or an editor; press Escape to leave it first.
      </p>
    </Dialog>
  );
}
