import { hasAny, type FormatDeclaration } from "../format";
import { importSweAgentDocument } from "./import";

const isChat = (keys: Set<string> | undefined) => hasAny(keys, "role") && hasAny(keys, "content", "tool_calls");

/** SWE-agent's .traj (0.x, 1.x, chat-only demonstrations) and mini-swe-agent's .traj.json: one run per file. */
export const sweAgentTrajectory: FormatDeclaration = {
  format: "SWE_AGENT_TRAJECTORY",
  detect: {
    document: ({ container, top, memberElements }) =>
      container === "object" &&
      ((hasAny(top, "trajectory", "history") && hasAny(top, "info", "environment", "replay_config")) ||
        // SWE-agent function-calling demonstrations and newer runs: only a `history` of chat messages
        // (R2E-Gym forks that keep the chat `history` beside `trajectory_steps` are R2E-Gym records)
        (top.has("history") &&
          !hasAny(top, "instance_id", "trajectory_steps") &&
          isChat(memberElements.get("history"))) ||
        // mini-swe-agent: `messages` plus `info` (exit status, submission) and its trajectory_format
        (top.has("messages") && hasAny(top, "trajectory_format", "info") && !hasAny(top, "run_id", "resolved"))),
  },
  document: importSweAgentDocument,
};
