type ReleaseOption = { id: string; name: string };

function ReleaseSelect({
  label,
  name,
  releases,
  defaultValue,
}: {
  label: string;
  name: string;
  releases: ReleaseOption[];
  defaultValue: string;
}) {
  return (
    <label className="flex flex-col">
      {label}
      <select name={name} defaultValue={defaultValue} className="rounded border border-slate-300 px-2 py-1">
        {releases.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Two releases to compare on /releases/diff, the newest two by default; `releases` is newest first, two or more. */
export function CompareReleasesForm({ releases }: { releases: ReleaseOption[] }) {
  return (
    <form action="/releases/diff" className="flex flex-wrap items-end gap-3 text-sm" aria-label="Compare releases">
      <ReleaseSelect label="From" name="from" releases={releases} defaultValue={releases[1].id} />
      <ReleaseSelect label="To" name="to" releases={releases} defaultValue={releases[0].id} />
      <button type="submit" className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100">
        Compare
      </button>
    </form>
  );
}
