"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";

export const ANALYTICS_LINKS = [
  { href: "/analytics/funnel", label: "Validation funnel" },
  { href: "/analytics/reviewers", label: "Reviewer analytics" },
  { href: "/analytics/generated-tests", label: "Generated tests" },
  { href: "/analytics/verifiability", label: "Verifiability" },
];

export function AnalyticsTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Analytics" className="mb-4 flex gap-2 border-b border-slate-200 pb-2 text-sm">
      {ANALYTICS_LINKS.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          aria-current={pathname === link.href ? "page" : undefined}
          className={`rounded px-2 py-1 ${pathname === link.href ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

/** CSV of each table and the page's JSON, for exactly the filters shown. */
export function ExportLinks({
  apiPath,
  queryString,
  tables,
}: {
  apiPath: string;
  queryString: string;
  tables: { name: string; label: string }[];
}) {
  const withQuery = (extra: string) => `${apiPath}?${[queryString, extra].filter(Boolean).join("&")}`;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="export-links">
      <span className="text-slate-600">Export:</span>
      {tables.map((t) => (
        <a
          key={t.name}
          href={withQuery(`format=csv&table=${t.name}`)}
          download
          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100"
        >
          {t.label} (CSV)
        </a>
      ))}
      <a
        href={withQuery("format=json")}
        download
        className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100"
      >
        All (JSON)
      </a>
    </div>
  );
}

/** A page's filters, then the export links for what they show. */
export function FiltersAndExports({
  children,
  ...exports
}: Parameters<typeof ExportLinks>[0] & { children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      {children}
      <ExportLinks {...exports} />
    </div>
  );
}

/** A filter in the URL: a select with "all" as the empty value. */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
  name,
}: {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className="flex flex-col text-xs font-medium text-slate-700">
      {label}
      <select name={name} value={value} onChange={(e) => onChange(e.target.value || undefined)} className={inputClass}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Loading, error and the page body, one way for every analytics page. */
export function AnalyticsBody<T>({
  data,
  error,
  children,
}: {
  data: T | undefined;
  error: Error | null;
  children: (data: T) => ReactNode;
}) {
  if (error) return <ErrorText error={error} prefix="Could not compute these figures" />;
  if (!data) return <p className="text-sm text-slate-600">Computing…</p>;
  return <>{children(data)}</>;
}

/** A chart and the table of its numbers, side by side on a wide screen. */
export function ChartBeside({ chart, table }: { chart: ReactNode; table: ReactNode }) {
  return (
    <section className="grid gap-4 xl:grid-cols-2">
      {chart}
      {table}
    </section>
  );
}
