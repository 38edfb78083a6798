// Renders HTML that the server produced with lib/tasks/render-markdown (marked + an
// allow-list sanitizer). Never pass unsanitized text here.
const PROSE = [
  "text-sm leading-6 text-slate-800 break-words",
  "[&_h1]:mt-4 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:font-semibold",
  "[&_p]:my-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6",
  "[&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-xs [&_pre]:text-slate-100",
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:text-[0.85em]",
  "[&_a]:text-blue-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_blockquote]:text-slate-600",
  "[&_table]:my-2 [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2",
].join(" ");

export function Markdown({ html, className = "", testId }: { html: string; className?: string; testId?: string }) {
  return <div className={`${PROSE} ${className}`} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
