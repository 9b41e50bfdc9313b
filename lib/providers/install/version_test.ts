import assert from "node:assert/strict";
import {
  acceptable,
  compareVersions,
  ConstraintError,
  constraintsString,
  newestAcceptable,
  parseConstraints,
  parseVersion,
  type Version,
  versionString,
} from "./version.ts";

const v = (s: string): Version => {
  const r = parseVersion(s);
  if (!r) throw new Error(`bad version ${s}`);
  return r;
};

Deno.test("parseVersion() reads semantic versions and refuses partial ones", () => {
  assert.deepEqual(v("5.100.0"), { major: 5, minor: 100, patch: 0, prerelease: "", metadata: "" });
  assert.equal(versionString(v("1.2.3-beta.1+x.7")), "1.2.3-beta.1+x.7");
  assert.equal(parseVersion("1.2"), undefined);
  assert.equal(parseVersion("v1.2.3"), undefined);
  assert.equal(parseVersion("1.2.3-"), undefined);
});

Deno.test("compareVersions() follows semver precedence", () => {
  const sorted = [
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1",
    "1.10.0",
    "2.0.0",
  ];
  const shuffled = [...sorted].reverse();
  assert.deepEqual(shuffled.map(v).sort(compareVersions).map(versionString), sorted);
  assert.equal(compareVersions(v("1.0.0+a"), v("1.0.0+b")), 0, "metadata has no precedence");
});

Deno.test("acceptable() gives each operator Terraform's meaning", () => {
  const ok = (c: string, ver: string) => acceptable(v(ver), parseConstraints(c));
  assert.ok(ok("~> 5.100", "5.100.0"));
  assert.ok(ok("~> 5.100", "5.200.3"));
  assert.ok(!ok("~> 5.100", "6.0.0"));
  assert.ok(!ok("~> 5.100", "5.99.9"));
  assert.ok(ok("~> 1.2.3", "1.2.9"));
  assert.ok(!ok("~> 1.2.3", "1.3.0"));
  assert.ok(ok("~> 1", "1.9.0"));
  assert.ok(!ok("~> 1", "2.0.0"));
  assert.ok(ok(">= 1.2, < 2.0", "1.2.0"));
  assert.ok(ok(">= 1.2, < 2.0", "1.99.0"));
  assert.ok(!ok(">= 1.2, < 2.0", "2.0.0"));
  assert.ok(ok("= 5.100.0", "5.100.0"));
  assert.ok(ok("5.100.0", "5.100.0"));
  assert.ok(!ok("= 5.100.0", "5.100.1"));
  assert.ok(!ok("!= 5.100.0", "5.100.0"));
  assert.ok(ok("!= 5.100.0", "5.100.1"));
  assert.ok(ok("> 1.0.0, <= 1.5", "1.5.0"));
  assert.ok(!ok("> 1.0.0", "1.0.0"));
  assert.ok(ok("", "0.0.1"), "no condition: every release");
});

Deno.test("acceptable() selects a pre-release only when a = condition names it", () => {
  const ok = (c: string, ver: string) => acceptable(v(ver), parseConstraints(c));
  assert.ok(!ok(">= 1.0", "2.0.0-beta1"));
  assert.ok(!ok("~> 2.0", "2.1.0-rc.1"));
  assert.ok(!ok("", "2.0.0-beta1"));
  assert.ok(!ok("< 2.0.0", "2.0.0-beta1"));
  assert.ok(ok("2.0.0-beta1", "2.0.0-beta1"));
  assert.ok(ok("= 2.0.0-beta1, >= 1.0", "2.0.0-beta1"));
  assert.ok(!ok("= 2.0.0-beta1, != 2.0.0-beta1", "2.0.0-beta1"));
  assert.ok(!ok("2.0.0-beta1", "2.0.0-beta2"));
  const versions = ["1.9.0", "2.0.0-beta1", "1.10.0-rc1"].map(v);
  assert.equal(versionString(newestAcceptable(versions, parseConstraints(">= 1.0"))!), "1.9.0");
  assert.equal(
    versionString(newestAcceptable(versions, parseConstraints("2.0.0-beta1"))!),
    "2.0.0-beta1",
  );
  assert.equal(newestAcceptable(versions, parseConstraints(">= 3")), undefined);
});

Deno.test("constraintsString() writes the canonical form that Terraform's lock file holds", () => {
  const canon = (c: string) => constraintsString(parseConstraints(c));
  assert.equal(canon("~> 5.100"), "~> 5.100");
  assert.equal(canon("~>5.100.1"), "~> 5.100.1");
  assert.equal(canon("~> 5"), "~> 5.0");
  assert.equal(canon(">= 1.0"), ">= 1.0.0");
  assert.equal(canon("< 2.0, >= 1.2"), ">= 1.2.0, < 2.0.0");
  assert.equal(canon("= 5.100.0"), "5.100.0");
  assert.equal(canon("!= 1.5.0, >= 1.0, >= 1.0.0"), ">= 1.0.0, != 1.5.0");
  assert.equal(canon("2.0.0-beta1"), "2.0.0-beta1");
  assert.equal(canon(""), "");
});

Deno.test("parseConstraints() refuses what Terraform refuses, naming the mistake", () => {
  const refused = (c: string, pattern: RegExp) =>
    assert.throws(() => parseConstraints(c), (e: unknown) => {
      assert.ok(e instanceof ConstraintError);
      assert.match(e.message, pattern);
      return true;
    });
  refused("=> 1.0", /did you mean ">="/);
  refused("=< 1.0", /did you mean "<="/);
  refused("^1.0", /invalid operator "\^"/);
  refused("v1.0", /"v" prefix/);
  refused(">= v1.0", /"v" prefix/);
  refused(">=  1.0", /only one space/);
  refused(">= 1.0 < 2.0", /missing comma after ">= 1.0"/);
  refused("1.2.3.4", /too many parts/);
  refused("1.x", /wildcard/);
  refused(">= 1.0,", /nothing after the last comma/);
  refused("latest", /invalid condition "latest"/);
});
