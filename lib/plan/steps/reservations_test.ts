import assert from "node:assert/strict";
import { DiagnosticsError } from "../../diag/diag.ts";
import type { ReservationConflict } from "../../state/store.ts";
import { changingAddresses, checkReservations } from "./reservations.ts";
import { planned } from "./_testing.ts";

const NODES = [
  planned("kept"),
  planned("made", { action: "create" }),
  planned("renamed", { movedFrom: "old" }),
  planned("file", { mode: "data", action: "read" }),
  planned("gone", { action: "delete" }),
];

Deno.test("changingAddresses() lists the nodes a plan changes, and both addresses of a move", () => {
  assert.deepEqual(changingAddresses(NODES), ["made", "renamed", "old", "gone"]);
});

Deno.test("checkReservations() refuses a plan that changes what another actor reserved", async () => {
  const asked: unknown[] = [];
  const conflict = {
    reservation: {
      id: "r-1",
      actor: "bob",
      planId: "p-9",
      reason: "",
      expires: "2030-01-01T00:00:00.000Z",
    },
    addresses: ["made"],
  } as unknown as ReservationConflict;
  const store = (found: ReservationConflict[]) => ({
    findReservationConflicts: (addresses: string[], by: { actor: string }) => {
      asked.push([addresses, by]);
      return Promise.resolve(found);
    },
  });
  await checkReservations(NODES, store([]), { actor: "alice" });
  assert.deepEqual(asked, [[["made", "renamed", "old", "gone"], { actor: "alice" }]]);
  await assert.rejects(
    checkReservations(NODES, store([conflict]), { actor: "alice" }),
    (e) =>
      e instanceof DiagnosticsError && e.kind === "locked" &&
      e.diagnostics[0].summary === "Reserved by bob",
  );
  // `pravo why` explains them instead.
  await checkReservations(NODES, store([conflict]), { actor: "alice", explain: true });
});
