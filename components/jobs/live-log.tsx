"use client";
import { useEffect, useRef, useState } from "react";
import { useLiveLog, type LiveLogState } from "./use-live-log";

/** A job's live log, scrolled to the end as it grows unless the reader scrolled up. */
export function LiveLog({ url, label, onEnd }: { url: string; label: string; onEnd?: (state: LiveLogState) => void }) {
  const state = useLiveLog(url);
  const box = useRef<HTMLPreElement>(null);
  const [follow, setFollow] = useState(true);
  const ended = useRef(false);

  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [state.text, follow]);
  useEffect(() => {
    if (state.ended && !ended.current) {
      ended.current = true;
      onEnd?.(state);
    }
  }, [state, onEnd]);

  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2 text-xs text-slate-600">
        <span className="font-medium text-slate-800">{label}</span>
        <span role="status">
          {state.ended ? `finished: ${state.status?.toLowerCase()}` : state.text ? "streaming…" : "waiting for output…"}
        </span>
        {state.error && (
          <span role="alert" className="text-red-700">
            {state.error}
          </span>
        )}
        <label className="ml-auto flex items-center gap-1">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow the end
        </label>
      </div>
      <pre
        ref={box}
        role="log"
        aria-live="off"
        aria-label={label}
        tabIndex={0}
        data-testid="live-log"
        className="h-72 overflow-auto whitespace-pre-wrap break-all rounded border border-slate-300 bg-slate-950 p-2 font-mono text-xs text-slate-100"
      >
        {state.text || " "}
      </pre>
    </div>
  );
}
