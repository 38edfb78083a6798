import { serverConfig } from "../config/server-config";
// Progress on stderr: a redrawn bar on a terminal, plain lines every few seconds when
// piped (so logs stay readable and stdout stays clean for data).

export type ProgressState = {
  label: string;
  bytesRead: number;
  bytesTotal: number | null;
  records: number;
  failed: number;
  startedAt: number;
  steps?: number;
};

const formatMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function describeProgress(state: ProgressState, now = Date.now()): { percent: number | null; text: string } {
  const seconds = Math.max((now - state.startedAt) / 1000, 0.001);
  const percent = state.bytesTotal ? Math.min(100, Math.round((state.bytesRead / state.bytesTotal) * 100)) : null;
  const rate = Math.round(state.records / seconds);
  // a trajectory file is one record of many steps: its progress is in steps
  const steps = state.steps
    ? `${state.steps.toLocaleString("en-US")} steps, ${Math.round(state.steps / seconds).toLocaleString("en-US")} steps/s, `
    : "";
  const text = `${state.records.toLocaleString("en-US")} records${state.failed ? ` (${state.failed.toLocaleString("en-US")} failed)` : ""}, ${steps || `${rate.toLocaleString("en-US")} records/s, `}${formatMb(state.bytesRead)}${state.bytesTotal ? ` of ${formatMb(state.bytesTotal)}` : ""}`;
  return { percent, text };
}

export class Progress {
  private lastLineAt = 0;
  private drawn = false;
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly tty = !!process.stderr.isTTY && serverConfig().TERM !== "dumb",
    private readonly plainEveryMs = 5000,
  ) {}

  update(state: ProgressState) {
    const { percent, text } = describeProgress(state);
    if (this.tty) {
      const width = 24;
      const filled = percent === null ? 0 : Math.round((percent / 100) * width);
      const bar =
        percent === null ? "" : `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(percent).padStart(3)}% `;
      const line = `${state.label} ${bar}${text}`;
      const columns = this.stream.columns ?? 120;
      this.stream.write(`\r${line.slice(0, columns - 1).padEnd(Math.min(columns - 1, line.length))}\x1b[K`);
      this.drawn = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastLineAt < this.plainEveryMs) return;
    this.lastLineAt = now;
    this.stream.write(`${state.label}: ${percent === null ? "" : `${percent}%, `}${text}\n`);
  }

  /** clears the bar so the next line starts clean */
  done() {
    if (this.tty && this.drawn) this.stream.write("\r\x1b[K");
    this.drawn = false;
  }
}
