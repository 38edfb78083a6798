import { expect, it } from "vitest";
import { firstFailureLine, splitAtLine, stripAnsi } from "@/components/editor/log-text";

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

it("splits a log around the line a link names, so the page can mark it before Monaco loads", () => {
  expect(splitAtLine("one\ntwo\nthree", 2)).toEqual({ before: "one\n", line: "two", after: "\nthree" });
  expect(splitAtLine("one\ntwo", 1)).toEqual({ before: "", line: "one", after: "\ntwo" });
  expect(splitAtLine("one\ntwo\n", 3)).toEqual({ before: "one\ntwo\n", line: "", after: "" });
  expect(splitAtLine("one\ntwo", 3)).toBeNull();
});
