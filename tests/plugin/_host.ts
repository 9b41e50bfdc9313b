/**
 * A stand-in for pravo in the tests of process lifetimes and permissions:
 * starts a provider, prints `PID <provider pid>`, then ends as MODE says.
 *
 *   deno run ... tests/plugin/_host.ts MODE [aws]
 *
 * - `exit`: `Deno.exit(0)` with the provider running;
 * - `throw`: an uncaught error;
 * - `reject`: an unhandled promise rejection;
 * - `wait`: waits for a signal (the test sends SIGTERM or SIGINT);
 * - `env NAME...`: prints the fake provider's values of those variables as
 *   JSON, closes it and exits 0;
 * - `close`: closes the provider and lets the program end by itself;
 * - `metadata`: prints the numbers of resource and data source types and
 *   whether the connection is TLS, as JSON, closes it and exits 0.
 *
 * With `aws` as the second word it starts the real AWS provider from
 * $PRAVO_TEST_TF_MIRROR instead of the fake one.
 *
 * @module
 */

import { startProvider } from "../../lib/plugin/mod.ts";
import { FATAL_EVENT, type FatalEvent } from "../../lib/diag/fatal.ts";
import { FAKE, PROJECT } from "./_fake.ts";
import { awsProviderPath } from "./_aws.ts";

// As main.ts does: the program's entry point is the one that exits. A signal
// while a provider runs ends it with 128 + the signal's number, the
// providers killed first (lib/plugin/exit.ts).
globalThis.addEventListener(FATAL_EVENT, (ev) => {
  const { fatal } = ev as FatalEvent;
  ev.preventDefault();
  Deno.exit("signal" in fatal ? 128 + fatal.signal : 1);
});

const [mode, ...rest] = Deno.args;
const aws = rest[0] === "aws";
// With $PRAVO_TEST_SOCKET the socket is moved there (narrow permissions).
let socketPath: string | undefined;
try {
  socketPath = Deno.env.get("PRAVO_TEST_SOCKET");
} catch {
  socketPath = undefined;
}
const started = await startProvider(
  aws ? { command: awsProviderPath(), name: "hashicorp/aws", socketPath } : {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", FAKE, "normal"],
    cwd: PROJECT,
    name: "example/fake",
    socketPath,
  },
);
if (!started.value) {
  console.error(JSON.stringify(started.diagnostics));
  Deno.exit(9);
}
const p = started.value;
console.log(`PID ${p.process.pid}`);

switch (mode) {
  case "exit":
    Deno.exit(0);
    break;
  case "throw":
    setTimeout(() => {
      throw new Error("the host failed");
    }, 10);
    break;
  case "reject":
    Promise.reject(new Error("the host rejected"));
    break;
  case "wait":
    console.log("WAITING");
    await new Promise(() => {});
    break;
  case "env": {
    const r = await p.readDataSource({ typeName: "fake_env", config: { names: rest } });
    console.log(
      JSON.stringify(
        r.diagnostics.length ? r.diagnostics : (r.state as { values: unknown }).values,
      ),
    );
    await p.close();
    Deno.exit(0);
    break;
  }
  case "close":
    await p.close();
    break;
  case "metadata": {
    const md = await p.getMetadata();
    console.log(JSON.stringify({
      protocol: p.protocol,
      tls: p.process.tls,
      resources: md.resources.length,
      dataSources: md.dataSources.length,
      diagnostics: md.diagnostics,
    }));
    await p.close();
    Deno.exit(0);
    break;
  }
}
