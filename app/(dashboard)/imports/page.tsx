import { ImportsPage } from "@/components/imports/imports-page";

export default function Page() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Imports and exports</h1>
      <ImportsPage />
    </>
  );
}
