import { strict as assert } from "node:assert";
import type { ProviderSchema } from "../../plugin/provider.ts";
import type { Schema } from "../../plugin/schema.ts";
import { readSchemaCache, writeSchemaCache } from "./schema_cache.ts";

const block = (name: string): Schema => ({
  version: 2,
  block: {
    attributes: {},
    blockTypes: {},
    description: name,
    descriptionKind: "plain",
    deprecated: false,
  },
});

Deno.test("writeSchemaCache() keeps a schema by its package's hash; each type is read when asked for", () => {
  const dir = Deno.makeTempDirSync();
  const schema: ProviderSchema = {
    provider: block("provider"),
    resources: { acme_bucket: block("bucket") },
    dataSources: { acme_bucket: block("data bucket") },
    ephemeralResources: {},
    serverCapabilities: {
      planDestroy: true,
      getProviderSchemaOptional: true,
      moveResourceState: false,
    },
  };
  const h1 = "h1:abc/def+gh=";
  assert.equal(readSchemaCache(dir, h1), undefined);
  const meta = { address: "registry.terraform.io/acme/cloud", version: "1.0.0" };
  const written = writeSchemaCache(dir, h1, meta, schema)!;
  assert.deepEqual(written.index.types.managed, { acme_bucket: 2 });
  const read = readSchemaCache(dir, h1)!;
  assert.equal(read.type("managed", "acme_bucket")?.block.description, "bucket");
  assert.equal(read.type("data", "acme_bucket")?.block.description, "data bucket");
  assert.equal(read.type("managed", "nothing"), undefined);
  assert.equal(read.pluginSchema().resources.acme_bucket.version, 2);
  assert.equal(readSchemaCache(dir, "h1:other"), undefined, "another package has no schema here");
  Deno.removeSync(dir, { recursive: true });
});
