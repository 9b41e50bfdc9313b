import { strict as assert } from "node:assert";
import { Style } from "../diag/style.ts";
import { renderPlan } from "./plan.ts";

type Doc = Parameters<typeof renderPlan>[0];

/** A plan document of one node, as planDocument() writes it, with what the view reads. */
function docOf(node: Record<string, unknown>): Doc {
  return {
    nodes: [{
      mode: "managed",
      name: "acl",
      provider: "hashicorp/aws",
      before: null,
      changed: [],
      dependencies: [],
      sensitive: [],
      ...node,
    }],
    summary: { add: 1, change: 0, replace: 0, destroy: 0, delete: 0, read: 0 },
    outputs: {},
    outputs_unknown: [],
    output_changes: {},
    destroy: false,
  } as unknown as Doc;
}

Deno.test("renderPlan() shows a created node's nested blocks one leaf a line, what is known only after apply at its place, nulls left out", () => {
  const text = renderPlan(
    docOf({
      address: "acl",
      type: "aws_s3_bucket_acl",
      action: "create",
      after: {
        bucket: "b",
        acl: null,
        tags: { team: "data" },
        names: ["a", "b"],
        policy: [{ grant: [{ id: "c1", permission: "READ", note: null }], owner: [{ id: "o" }] }],
      },
      after_unknown: ["id", "policy[0].grant[0].display_name", "policy[0].owner[0].display_name"],
    }),
    new Style(false),
  );
  const block = text.slice(text.indexOf("  # acl"), text.indexOf("\n    }\n") + 6);
  assert.equal(
    block,
    [
      "  # acl will be created",
      "  + acl: aws_s3_bucket_acl {",
      '      + bucket = "b"',
      "      + id     = (known after apply)",
      '      + names  = ["a","b"]',
      "      + policy = [",
      "          + {",
      "              + grant = [",
      "                  + {",
      "                      + display_name = (known after apply)",
      '                      + id           = "c1"',
      '                      + permission   = "READ"',
      "                    },",
      "                ]",
      "              + owner = [",
      "                  + {",
      "                      + display_name = (known after apply)",
      '                      + id           = "o"',
      "                    },",
      "                ]",
      "            },",
      "        ]",
      "      + tags   = {",
      '          + team = "data"',
      "        }",
      "    }",
    ].join("\n"),
  );
  assert.doesNotMatch(text, /policy\[0\]/, "no path of an unknown is a row of its own");
});
