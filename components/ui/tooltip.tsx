"use client";
import { useId } from "react";

/**
 * A term with its explanation: the explanation shows on hover and on keyboard focus (the
 * term is focusable), and screen readers hear it as the term's description.
 */
export function Tooltip({ children, text }: { children: React.ReactNode; text: string }) {
  const id = useId();
  return (
    <span className="group relative inline-flex">
      <span
        tabIndex={0}
        aria-describedby={id}
        className="cursor-help rounded underline decoration-slate-400 decoration-dotted underline-offset-2"
      >
        {children}
      </span>
      <span
        role="tooltip"
        id={id}
        className="pointer-events-none invisible absolute top-full left-0 z-20 mt-1 w-72 rounded bg-slate-900 px-2 py-1 text-xs font-normal text-white opacity-0 shadow group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
      >
        {text}
      </span>
    </span>
  );
}
