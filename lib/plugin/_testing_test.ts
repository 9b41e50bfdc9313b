import assert from "node:assert/strict";
import { attrMessage, blockMessage } from "./_testing.ts";
import { schemaFrom } from "./schema.ts";

Deno.test("attrMessage() and blockMessage() write schema messages that schemaFrom() reads back", () => {
  const s = schemaFrom({
    block: {
      attributes: [attrMessage("id", "string", { computed: true })],
      block_types: [
        blockMessage("rule", {
          nesting: "list",
          maxItems: 2,
          attributes: [attrMessage("port", "number", { required: true })],
        }),
        blockMessage("site", { nesting: "map", attributes: [] }),
      ],
    },
  });
  assert.equal(s.block.attributes.id.type, "string");
  assert.equal(s.block.attributes.id.computed, true);
  assert.equal(s.block.blockTypes.rule.nesting, "list");
  assert.equal(s.block.blockTypes.rule.maxItems, 2);
  assert.equal(s.block.blockTypes.rule.block.attributes.port.required, true);
  assert.equal(s.block.blockTypes.site.nesting, "map");
  assert.equal(blockMessage("x", { nesting: "single", attributes: [] }).max_items, undefined);
});
