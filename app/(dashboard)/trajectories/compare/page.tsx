import { CompareView } from "@/components/trajectory/compare-view";

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export default async function CompareTrajectoriesPage({ searchParams }: { searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> }) {
  const query = await searchParams;
  return <CompareView a={one(query.a)} b={one(query.b)} />;
}
