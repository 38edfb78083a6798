"use client";
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import type { listCampaigns } from "@/lib/campaigns/report";
import { apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { useCan } from "@/components/auth/actor-context";
import { ProgressBar } from "./progress-bar";

type Row = Awaited<ReturnType<typeof listCampaigns>>[number];

export function CampaignList() {
  const manages = useCan("campaigns:manage");
  const { data, error } = useQuery({
    queryKey: queryKeys.campaigns(),
    queryFn: () => apiFetchAll<Row>("/api/v1/campaigns"),
  });
  if (error) return <ErrorText error={error} prefix="Could not load campaigns" />;
  if (!data) return <p>Loading campaigns…</p>;
  if (data.length === 0)
    return (
      <p className="text-sm text-slate-600">
        {manages
          ? "No campaign yet: create one."
          : "You are not an annotator of any campaign yet; an admin adds you when creating one."}
      </p>
    );
  return (
    <table className="w-full text-sm" data-testid="campaign-list">
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
          <th scope="col" className="p-2">
            Campaign
          </th>
          <th scope="col" className="p-2">
            Rubric
          </th>
          <th scope="col" className="p-2">
            Overlap
          </th>
          <th scope="col" className="p-2">
            Labels
          </th>
          <th scope="col" className="p-2">
            Yours
          </th>
          <th scope="col" className="p-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {data.map((c) => (
          <tr key={c.id} className="border-b border-slate-100" data-testid="campaign-row">
            <td className="p-2">
              <Link href={`/campaigns/${c.id}`} className="font-medium text-blue-700 underline">
                {c.name}
              </Link>{" "}
              {c.status !== "ACTIVE" && <Badge>{c.status}</Badge>}
            </td>
            <td className="p-2">{c.rubric}</td>
            <td className="p-2">
              {c.overlap} of {c.annotators} annotators
            </td>
            <td className="p-2">
              <ProgressBar done={c.labels} total={c.labelsNeeded} label={`Labels of ${c.name}`} />
            </td>
            <td className="p-2 tabular-nums">{c.mine}</td>
            <td className="p-2">
              <Link href={`/campaigns/${c.id}/annotate`} className="text-blue-700 underline">
                Annotate
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
