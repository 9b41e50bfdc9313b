import assert from "node:assert/strict";
import { AddressError, addressString, displayAddress, parseProviderSource } from "./address.ts";

Deno.test("parseProviderSource() reads the three forms and folds case, as Terraform does", () => {
  const full = (s: string) => addressString(parseProviderSource(s));
  const aws = "registry.terraform.io/hashicorp/aws";
  for (const s of ["aws", "hashicorp/aws", "HashiCorp/AWS", aws]) assert.equal(full(s), aws, s);
  assert.equal(full("Registry.OpenTofu.org/hashicorp/aws"), "registry.opentofu.org/hashicorp/aws");
  assert.equal(full("example.com:8443/acme/x-y"), "example.com:8443/acme/x-y");
  assert.equal(full("example.com:443/acme/x"), "example.com/acme/x", "the default port is dropped");
  assert.equal(displayAddress(parseProviderSource("registry.terraform.io/a/b")), "a/b");
  assert.equal(
    displayAddress(parseProviderSource("registry.opentofu.org/a/b")),
    "registry.opentofu.org/a/b",
  );
});

Deno.test("parseProviderSource() refuses malformed addresses and says how to write them", () => {
  const refused = (s: string, pattern: RegExp) =>
    assert.throws(() => parseProviderSource(s), (e: unknown) => {
      assert.ok(e instanceof AddressError);
      assert.match(`${e.summary}\n${e.detail}`, pattern);
      return true;
    });
  refused("a/b/c/d", /Invalid provider source "a\/b\/c\/d"[\s\S]*\[HOSTNAME\/\]NAMESPACE\/TYPE/);
  refused("hashicorp/", /Invalid provider source/);
  refused("/aws", /Invalid provider source/);
  refused("hashi.corp/aws", /Invalid provider namespace "hashi.corp"[\s\S]*Dots/);
  refused("hashicorp/a--b", /Two dashes/);
  refused("hashicorp/-aws", /Invalid provider type "-aws"/);
  refused("hashicorp/a_b", /Invalid provider type "a_b"/);
  refused("bad_host/a/b", /Invalid provider hostname "bad_host"/);
  refused("host:99999/a/b", /Invalid provider hostname/);
  refused(
    "hashicorp/terraform-provider-aws",
    /terraform-provider-[\s\S]*Write "hashicorp\/aws"/,
  );
  refused("hashicorp/terraform-aws", /may not start with "terraform-"/);
});
