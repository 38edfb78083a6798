import { pageContext } from "@/lib/http/page-context";
import { getAgreement } from "@/lib/metrics/get-agreement";
import { getCurationSettings } from "@/lib/curation/settings";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { AgreementReport } from "@/components/tasks/agreement-report";
import { CurationSettingsPanel } from "@/components/tasks/curation-settings";

export default async function AgreementPage() {
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const { db, blind } = await pageContext();
  // agreement over every decision (the report opens with no "since" day) and the settings, as GET /api/v1/agreement and /api/v1/settings read them
  const [agreement, settings] = await Promise.all([getAgreement(db, {}, blind), getCurationSettings(db)]);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Curator agreement</h1>
      <Prefetched
        entries={[
          [queryKeys.curationSettings(), settings],
          [queryKeys.agreement(""), agreement],
        ]}
      >
        <CurationSettingsPanel />
        <AgreementReport />
      </Prefetched>
    </div>
  );
}
