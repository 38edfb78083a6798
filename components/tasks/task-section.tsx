/** One titled part of the task page; `step` numbers the parts in the order a curator works through them. */
export function TaskSection({
  title,
  id,
  step,
  children,
  actions,
}: {
  title: string;
  id: string;
  step?: number;
  children: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex scroll-mt-4 flex-col gap-2" id={`${id}-section`}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={id} className="text-base font-semibold">
          {step !== undefined && (
            <span
              className="mr-2 inline-flex h-5 w-5 items-center justify-center rounded-full bg-slate-800 text-xs text-white"
              aria-hidden="true"
            >
              {step}
            </span>
          )}
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
