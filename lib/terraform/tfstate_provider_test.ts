import assert from "node:assert/strict";
import { parseProviderRef, sameProvider } from "./tfstate_provider.ts";

Deno.test("parseProviderRef() reads the provider, its alias and a module's own configuration", () => {
  const p = parseProviderRef('provider["registry.terraform.io/hashicorp/aws"]');
  assert.ok("address" in p);
  assert.equal(p.address, "registry.terraform.io/hashicorp/aws");
  assert.deepEqual([p.hostname, p.namespace, p.type, p.alias, p.module], [
    "registry.terraform.io",
    "hashicorp",
    "aws",
    undefined,
    undefined,
  ]);
  const w = parseProviderRef(
    'module.net["a"].provider["registry.opentofu.org/hashicorp/aws"].west',
  );
  assert.ok("address" in w);
  assert.equal(w.alias, "west");
  assert.equal(w.module, 'module.net["a"]');
  assert.equal(w.address, "registry.opentofu.org/hashicorp/aws");
  const b = parseProviderRef('provider["terraform.io/builtin/terraform"]');
  assert.ok("address" in b && b.address === "terraform.io/builtin/terraform");
});

Deno.test("parseProviderRef() refuses what is not a provider configuration's address", () => {
  for (const text of ['provider["aws"', "aws", 'provider["registry.terraform.io/hashicorp/a.b"]']) {
    const p = parseProviderRef(text);
    assert.ok("problem" in p, text);
    assert.match(p.problem.detail, /terraform state pull > terraform.tfstate`\)\.$/, text);
  }
});

Deno.test("sameProvider() matches on namespace and type, on one host or across Terraform's and OpenTofu's registries", () => {
  const ref = (text: string) => {
    const p = parseProviderRef(text);
    if ("problem" in p) throw new Error(p.problem.summary);
    return p;
  };
  const tf = ref('provider["registry.terraform.io/hashicorp/aws"]');
  const tofu = ref('provider["registry.opentofu.org/hashicorp/aws"]');
  const other = ref('provider["example.com/hashicorp/aws"]');
  assert.equal(sameProvider(tf, "hashicorp/aws"), true);
  assert.equal(sameProvider(tofu, "hashicorp/aws"), true);
  assert.equal(sameProvider(tf, "registry.opentofu.org/hashicorp/aws"), true);
  assert.equal(sameProvider(tf, "HashiCorp/AWS"), true);
  assert.equal(sameProvider(tf, "hashicorp/google"), false);
  assert.equal(sameProvider(tf, "acme/aws"), false);
  assert.equal(sameProvider(other, "hashicorp/aws"), false);
  assert.equal(sameProvider(other, "example.com/hashicorp/aws"), true);
  assert.equal(sameProvider(tf, "not a source"), false);
});
