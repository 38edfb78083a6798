import { expect, it } from "vitest";
import { firstFailureLine, stripAnsi } from "@/components/editor/log-text";

it("strips colours and keeps only the last state of a carriage-return progress line", () => {
  expect(stripAnsi("\u001b[31mFAILED\u001b[0m tests/a.py\n 10%\r 50%\r100%\n\u001b]0;title\u0007done")).toBe(
    "FAILED tests/a.py\n100%\ndone",
  );
});

it("finds the first failure in a pytest log", () => {
  const log = [
    "============ test session starts ============",
    "collected 2 items",
    "tests/test_ops.py .F",
    "",
    "_______ test_mean_empty _______",
    "E   ValueError",
    "FAILED tests/test_ops.py::test_mean_empty",
  ].join("\n");
  expect(firstFailureLine(log)).toBe(5);
  expect(firstFailureLine("all good\n2 passed")).toBeNull();
});
