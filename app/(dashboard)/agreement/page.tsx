import { AgreementReport } from "@/components/tasks/agreement-report";
import { CurationSettingsPanel } from "@/components/tasks/curation-settings";

export default function AgreementPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Curator agreement</h1>
      <CurationSettingsPanel />
      <AgreementReport />
    </div>
  );
}
