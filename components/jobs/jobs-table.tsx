"use client";

/** A captioned table of the Jobs page, with a sentence in place of an empty one. */
export function Table({
  caption,
  head,
  children,
  empty,
}: {
  caption: string;
  head: string[];
  children: React.ReactNode[];
  empty: string;
}) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-base font-semibold text-slate-900">{caption}</h2>
      {children.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <div className="overflow-x-auto rounded border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{caption}</caption>
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col" className="px-2 py-1.5 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">{children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const cell = "px-2 py-1.5 align-top";
