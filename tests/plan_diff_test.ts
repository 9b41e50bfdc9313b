/**
 * Diffs a reviewer can trust at a glance (issue "Every feature on every
 * provider", item 4): a map that changes shows the keys that change, and a
 * JSON document (a policy, a file's JSON) shows its keys as JSON, as
 * Terraform's plan does, with `--no-color`.
 */
import { strict as assert } from "node:assert";
import { appliedRoot, pravo, removing, writeFiles } from "./_pravo.ts";

const root = (keepers: string, doc: string) =>
  `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	lc "pravo.dev/providers/hashicorp/local"
	"encoding/json"
)

$random: rnd.#Provider
$local:  lc.#Provider

pet: $random.#Resource.random_pet & {keepers: ${keepers}}
policy: $local.#Resource.local_file & {filename: "policy.json", content: json.Marshal(${doc})}
`;

/**
 * What `pravo plan` prints after `before` was applied and `after` written in
 * its place, in a new root (removed after); the plan has changes.
 */
async function planFromTo(before: string, after: string): Promise<string> {
  const dir = await appliedRoot({ "main.cue": before });
  await using _dir = removing(dir);
  await writeFiles(dir, { "main.cue": after });
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  return plan.stdout;
}

Deno.test("plan shows a map's changed keys, and a JSON document's keys, not the whole values", async () => {
  const plan = await planFromTo(
    root(
      `{team: "platform", env: "dev", owner: "a"}`,
      `{Version: "2012-10-17", Statement: [{Effect: "Allow"}], Id: "x"}`,
    ),
    root(
      `{team: "data", env: "dev", cost: "1"}`,
      `{Version: "2012-10-17", Statement: [{Effect: "Deny"}], Id: "x"}`,
    ),
  );
  const block = (addr: string) => {
    const lines = plan.split("\n");
    const start = lines.findIndex((l) => l.includes(`# ${addr} `));
    const end = lines.findIndex((l, i) => i > start && l === "    }");
    return lines.slice(start, end + 1).join("\n");
  };
  assert.match(
    block("pet"),
    new RegExp(
      [
        String.raw`      ~ keepers +\= \{ # forces replacement`,
        String.raw`          \+ "cost"  = "1"`,
        String.raw`          - "owner" = "a" -> null`,
        String.raw`          ~ "team"  = "platform" -> "data"`,
        String.raw`            # \(1 unchanged element hidden\)`,
        String.raw`        \}`,
      ].join("\n"),
    ),
    plan,
  );
  assert.match(
    block("policy"),
    new RegExp(
      [
        String.raw`      ~ content +\= jsonencode\( # forces replacement`,
        String.raw`          ~ Statement = \[`,
        String.raw`              ~ \{`,
        String.raw`                  ~ Effect = "Allow" -> "Deny"`,
        String.raw`                \},`,
        String.raw`            \]`,
        String.raw`            # \(2 unchanged attributes hidden\)`,
        String.raw`        \)`,
      ].join("\n"),
    ),
    plan,
  );
});

Deno.test("plan shows the keys and list elements that change at every level of a JSON document", async () => {
  const doc = (action: string, env: string) =>
    `{Statement: [{Effect: "Allow", Action: ["s3:List", "${action}"], Resource: "*"}], Tags: {team: "x", env: "${env}"}}`;
  const plan = await planFromTo(
    root(`{a: "1"}`, doc("s3:GetObject", "dev")),
    root(`{a: "1"}`, doc("s3:PutObject", "prod")),
  );
  const diff = [
    "      ~ content              = jsonencode( # forces replacement",
    "          ~ Statement = [",
    "              ~ {",
    "                  ~ Action = [",
    '                      - "s3:GetObject",',
    '                      + "s3:PutObject",',
    "                        # (1 unchanged element hidden)",
    "                    ]",
    "                    # (2 unchanged attributes hidden)",
    "                },",
    "            ]",
    "          ~ Tags      = {",
    '              ~ env = "dev" -> "prod"',
    "                # (1 unchanged attribute hidden)",
    "            }",
    "        )",
  ];
  assert.ok(plan.includes(diff.join("\n")), plan);
});
