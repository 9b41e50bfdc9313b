import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { parseSources } from "../sources/parse.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { nodeOrigins } from "./origin.ts";

Deno.test("nodeOrigins() gives no origin in a root that is no CUE module", () => {
  const origin = nodeOrigins(sourcesOf(RANDOM + "pet: $random.#Resource.random_pet\n"));
  assert.equal(origin(["pet"]), undefined);
});

Deno.test("nodeOrigins() gives the package of the module whose file declares the node's type", () => {
  const res = parseSources("/nowhere", [
    {
      name: "main.cue",
      src: RANDOM.replace(
        'import rnd "pravo.dev/providers/hashicorp/random"',
        'import (\n\trnd "pravo.dev/providers/hashicorp/random"\n\t"example.com/infra/lib/pets"\n)',
      ) + "mine: $random.#Resource.random_pet\ntheirs: pets.#Pet\n",
    },
    { name: "cue.mod/module.cue", src: 'module: "example.com/infra"\n' },
    {
      name: "lib/pets/pets.cue",
      src: 'package pets\n\nimport rnd "pravo.dev/providers/hashicorp/random"\n\n' +
        "#Pet: rnd.#Resource.random_pet\n",
    },
  ], BUILTIN_ONLY);
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  const origin = nodeOrigins(res.value);
  assert.deepEqual(origin(["mine"]), { package: "example.com/infra", module: "example.com/infra" });
  assert.deepEqual(origin(["theirs"]), {
    package: "example.com/infra/lib/pets",
    module: "example.com/infra",
  });
  assert.deepEqual(origin(["nothing"]), { package: "", module: "" });
});
