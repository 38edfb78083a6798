import { describe, expect, it } from "vitest";
import { renderMarkdown } from "@/lib/tasks/render-markdown";

describe("renderMarkdown", () => {
  it("renders an issue's headings, code and task lists", () => {
    const html = renderMarkdown("## `mean([])` crashes\n\n```python\nmean([])\n```\n\n- [x] checked");
    expect(html).toContain("<h2><code>mean([])</code> crashes</h2>");
    expect(html).toContain('<code class="language-python">');
    expect(html).toContain('type="checkbox"');
  });

  it("drops scripts, event handlers, javascript: links and remote images", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n[x](javascript:alert(1)) ![logo](http://evil.example/p.png) <img src=x onerror="alert(1)"> <a href="https://ok.example" onclick="x()">ok</a>',
    );
    expect(html).not.toMatch(/script|onerror|onclick|javascript:|<img|evil\.example/);
    expect(html).toContain("[image: logo]");
    expect(html).toContain('href="https://ok.example"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});
