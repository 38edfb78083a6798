"use client";
import type { FileTreeNode } from "@/lib/tasks/unified-diff";

const STATUS_MARK = { added: "A", deleted: "D", modified: "M", renamed: "R" } as const;
const STATUS_TONE = {
  added: "text-green-800",
  deleted: "text-red-800",
  modified: "text-amber-800",
  renamed: "text-blue-800",
} as const;

/** The files a patch touches, as folders and files; the selected file's diff is shown beside it. */
export function FileTree({
  nodes,
  selected,
  onSelect,
  label,
}: {
  nodes: FileTreeNode[];
  selected: string | null;
  onSelect: (path: string) => void;
  label: string;
}) {
  return (
    <ul role="tree" aria-label={label} className="text-sm">
      {nodes.map((node) => (
        <TreeItem key={node.path} node={node} selected={selected} onSelect={onSelect} depth={0} />
      ))}
    </ul>
  );
}

function TreeItem({
  node,
  selected,
  onSelect,
  depth,
}: {
  node: FileTreeNode;
  selected: string | null;
  onSelect: (path: string) => void;
  depth: number;
}) {
  const indent = { paddingLeft: `${depth * 12 + 4}px` };
  if (node.type === "dir") {
    return (
      <li role="treeitem" aria-expanded="true" aria-selected="false">
        <div style={indent} className="truncate py-0.5 font-medium text-slate-600" title={node.path}>
          {node.name}/
        </div>
        <ul role="group">
          {node.children.map((child) => (
            <TreeItem key={child.path} node={child} selected={selected} onSelect={onSelect} depth={depth + 1} />
          ))}
        </ul>
      </li>
    );
  }
  const { file } = node;
  const isSelected = selected === node.path;
  return (
    <li role="treeitem" aria-selected={isSelected}>
      <button
        type="button"
        style={indent}
        onClick={() => onSelect(node.path)}
        className={`flex w-full items-center gap-2 rounded py-0.5 pr-1 text-left ${isSelected ? "bg-blue-100 text-blue-900" : "hover:bg-slate-100"}`}
        title={
          file.oldPath && file.oldPath !== file.newPath ? `${file.oldPath} → ${file.newPath ?? "(deleted)"}` : node.path
        }
      >
        <span className={`w-3 font-mono text-xs font-bold ${STATUS_TONE[file.status]}`} aria-label={file.status}>
          {STATUS_MARK[file.status]}
        </span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs">{node.name}</span>
        <span className="font-mono text-xs text-green-800">+{file.additions}</span>
        <span className="font-mono text-xs text-red-800">−{file.deletions}</span>
      </button>
    </li>
  );
}
