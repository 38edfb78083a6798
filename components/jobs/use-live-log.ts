"use client";
import { useEffect, useState } from "react";

export type LiveLogState = {
  text: string;
  status: string | null;
  phase: string | null;
  ended: boolean;
  error: string | null;
};

// the browser keeps the end of a runaway log, not all of it
const MAX_CHARS = 400_000;

/**
 * Follows a job's server-sent log (event types log / status / end / failure). EventSource
 * reconnects by itself and resumes after the last chunk it saw (the chunk seq is the SSE id).
 * Mount it under a `key` of the url so a new job starts from an empty state.
 */
export function useLiveLog(url: string | null): LiveLogState {
  const [state, setState] = useState<LiveLogState>({ text: "", status: null, phase: null, ended: false, error: null });
  useEffect(() => {
    if (!url) return;
    const source = new EventSource(url);
    source.addEventListener("log", (event) => {
      const { content } = JSON.parse((event as MessageEvent).data) as { content: string };
      setState((s) => {
        const text = s.text + content;
        return { ...s, text: text.length > MAX_CHARS ? text.slice(-MAX_CHARS) : text };
      });
    });
    source.addEventListener("status", (event) => {
      const { status, phase } = JSON.parse((event as MessageEvent).data) as { status: string; phase: string | null };
      setState((s) => ({ ...s, status, phase }));
    });
    source.addEventListener("end", (event) => {
      const { status } = JSON.parse((event as MessageEvent).data) as { status: string };
      setState((s) => ({ ...s, status, phase: null, ended: true }));
      source.close();
    });
    source.addEventListener("failure", (event) => {
      const { message } = JSON.parse((event as MessageEvent).data) as { message: string };
      setState((s) => ({ ...s, error: message }));
      source.close();
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED)
        setState((s) => (s.ended ? s : { ...s, error: "The live log connection closed; reload to reconnect" }));
    };
    return () => source.close();
  }, [url]);
  return state;
}
