const TONES = {
  gray: "bg-slate-100 text-slate-700 ring-slate-300",
  green: "bg-green-50 text-green-800 ring-green-300",
  red: "bg-red-50 text-red-800 ring-red-300",
  amber: "bg-amber-50 text-amber-800 ring-amber-300",
  blue: "bg-blue-50 text-blue-800 ring-blue-300",
  purple: "bg-purple-50 text-purple-800 ring-purple-300",
} as const;
export type Tone = keyof typeof TONES;

const TONE_BY_VALUE: Record<string, Tone> = {
  APPROVED: "green",
  VALID: "green",
  APPROVE: "green",
  PASSED: "green",
  SUCCEEDED: "green",
  REJECTED: "red",
  INVALID: "red",
  REJECT: "red",
  FAILED: "red",
  ERROR: "red",
  REQUEST_CHANGES: "amber",
  NEEDS_CHANGES: "amber",
  FLAKY: "amber",
  MISSING: "amber",
  RUNNING: "blue",
  QUEUED: "blue",
  PENDING: "gray",
  SKIPPED: "gray",
  CANCELLED: "gray",
};

/** A small label; the tone follows the value (APPROVED green, REJECTED red, …) unless given. */
export function Badge({ children, tone, title }: { children: React.ReactNode; tone?: Tone; title?: string }) {
  const resolved = tone ?? (typeof children === "string" ? TONE_BY_VALUE[children] : undefined) ?? "gray";
  return (
    <span
      title={title}
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[resolved]}`}
    >
      {children}
    </span>
  );
}

/** SOME_ENUM_VALUE → "Some enum value". */
export function humanize(value: string | null | undefined): string {
  if (!value) return "—";
  const words = value.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
