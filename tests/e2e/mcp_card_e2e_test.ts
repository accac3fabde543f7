// An MCP tool call in the transcript: an ordinary tool card whose name is the tool, with its
// server beside it, and the server's result behind the expansion. The MCP server is the
// test fixture written with the official SDK, over Streamable HTTP on loopback.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { startHttpMcpServer } from "../fixtures/mcp_server.ts";

browserTest("an MCP tool call renders as an ordinary tool card with its server", async () => {
  const mcp = startHttpMcpServer("lab");
  const t = await transcriptFixture({
    yaml: `mcp_servers:\n  lab:\n    url: http://127.0.0.1:${mcp.port}/mcp\n    approval: allow\n`,
  });
  try {
    t.h.fake.enqueue(
      { toolCalls: [{ id: "call_m", name: "mcp__lab__echo", args: { text: "hello lab" } }] },
      { text: "The server echoed it." },
    );
    await t.open();
    await t.send("ask the lab server");
    await t.settled();
    await t.page.locator(".activity-summary, summary").filter({ hasText: "Activity: 1 tool" })
      .first().click();
    const card = t.page.locator('.tool-card[data-tool="mcp__lab__echo"]');
    await card.waitFor();
    strictEqual(await card.locator(".tool-name").textContent(), "echo");
    strictEqual(await card.locator(".tool-server").textContent(), "lab");
    strictEqual(await card.getAttribute("data-status"), "completed");
    await card.locator(".tool-head").click();
    await card.locator(".tool-detail").getByText("lab echo: hello lab").waitFor();
    await t.browser.screenshot(t.page, "mcp-tool-card");
    ok(t.h.fake.chatRequests.length >= 2, "the result went back to the model");
    t.browser.assertNoErrors();
  } finally {
    await t.close();
    await mcp.shutdown();
  }
});
