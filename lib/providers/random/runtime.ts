/**
 * The runtime of `hashicorp/random`: random values made once on create and
 * kept in the state. Every input forces replacement, so there is no update
 * and no read: a value changes only when it is replaced.
 *
 * Values come from `crypto.getRandomValues`, except where a `seed` makes
 * them deterministic (random_integer, random_shuffle): the same seed and
 * inputs always give the same result, from a SHA-256 stream of the seed
 * (not Terraform's Go math/rand stream, so the values differ from
 * Terraform's for the same seed).
 *
 * @module
 */

import { type Diagnostic, error, warning } from "../../diag/diag.ts";
import {
  bool,
  type ByteSource,
  cryptoBytes,
  fail,
  forgetOnly,
  int,
  ok,
  randomBelow,
  randomIndex,
  seededBytes,
  shuffle,
  stateOf,
  str,
} from "../_util.ts";
import { toBase64, toBase64Url, toHex } from "../../bytes.ts";
import type { Attrs, ProviderRuntime, TypeHandler, ValidateRequest } from "../runtime.ts";
import type { TypeSchema } from "../schema.ts";
import {
  BYTES_FORMAT,
  ID_FORMAT,
  importBytes,
  importId,
  importInteger,
  importString,
  importUuid,
  INTEGER_FORMAT,
  STRING_FORMAT,
  UUID_FORMAT,
} from "./import.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const SPECIAL = "!@#$%&*()-_=+[]{}<>:?";

/** The cost of bcrypt_hash, Go's `bcrypt.DefaultCost` as Terraform uses it. */
export const BCRYPT_COST = 10;

// ---------------------------------------------------------------------------
// Validation helpers

/** The known int attribute, or undefined when unset or unknown. */
function knownInt(req: ValidateRequest, name: string): number | undefined {
  return req.unknown.includes(name) ? undefined : int(req.type, req.config, name);
}

function atLeast(req: ValidateRequest, name: string, least: number): Diagnostic[] {
  const v = knownInt(req, name);
  if (v === undefined || v >= least) return [];
  return [
    error(
      `Invalid ${name} ${v}`,
      `${name} of ${req.type.name} must be at least ${least}. Set ${name} to ${least} or more.`,
      { address: req.address },
    ),
  ];
}

// ---------------------------------------------------------------------------
// random_string and random_password

interface StringSpec {
  length: number;
  classes: { chars: string[]; enabled: boolean; min: number; name: string }[];
}

function stringSpec(type: TypeSchema, config: Attrs): StringSpec {
  const override = str(type, config, "override_special");
  const special = override ? override : SPECIAL;
  // `number` is the deprecated alias of `numeric`: digits only when both allow them.
  const numeric = bool(type, config, "numeric") &&
    (type.attributes.number ? bool(type, config, "number") : true);
  return {
    length: int(type, config, "length") ?? 0,
    classes: [
      { name: "upper", chars: [...UPPER], enabled: bool(type, config, "upper"), min: 0 },
      { name: "lower", chars: [...LOWER], enabled: bool(type, config, "lower"), min: 0 },
      { name: "numeric", chars: [...DIGITS], enabled: numeric, min: 0 },
      { name: "special", chars: [...special], enabled: bool(type, config, "special"), min: 0 },
    ].map((c) => ({ ...c, min: int(type, config, `min_${c.name}`) ?? 0 })),
  };
}

/**
 * A random string as Terraform makes it: min_* characters from each class
 * (whether or not the class is enabled, as Terraform does), the rest from the
 * enabled classes together, then shuffled.
 */
export function generateString(spec: StringSpec, source: ByteSource = cryptoBytes): string {
  const out: string[] = [];
  for (const c of spec.classes) {
    for (let i = 0; i < c.min; i++) out.push(c.chars[randomIndex(c.chars.length, source)]);
  }
  const pool = spec.classes.filter((c) => c.enabled).flatMap((c) => c.chars);
  while (out.length < spec.length) out.push(pool[randomIndex(pool.length, source)]);
  return shuffle(out, source).join("");
}

function validateString(req: ValidateRequest): Diagnostic[] {
  const diags = [
    ...atLeast(req, "length", 1),
    ...["min_upper", "min_lower", "min_numeric", "min_special"].flatMap((n) => atLeast(req, n, 0)),
  ];
  const names = ["length", "min_upper", "min_lower", "min_numeric", "min_special"];
  if (diags.length > 0 || names.some((n) => req.unknown.includes(n))) return diags;
  const flags = ["upper", "lower", "numeric", "number", "special", "override_special"];
  if (flags.some((n) => req.unknown.includes(n))) return diags;
  const spec = stringSpec(req.type, req.config);
  const sum = spec.classes.reduce((s, c) => s + c.min, 0);
  const where = { address: req.address };
  if (spec.length < sum) {
    diags.push(error(
      `Invalid length ${spec.length}`,
      `length must be at least min_upper + min_lower + min_numeric + min_special (${sum}). ` +
        `Set length to ${sum} or more, or lower the min_* attributes.`,
      where,
    ));
  } else if (spec.length > sum && !spec.classes.some((c) => c.enabled)) {
    diags.push(error(
      "No characters to choose from",
      "upper, lower, numeric and special are all false, so the characters beyond the min_* " +
        "counts cannot be chosen. Set at least one of them to true.",
      where,
    ));
  }
  for (const c of spec.classes) {
    if (c.min > 0 && !c.enabled) {
      diags.push(warning(
        `min_${c.name} is set while ${c.name} is false`,
        `${c.min} ${c.name} characters are still included, as Terraform does. Set ${c.name} ` +
          `to true, or min_${c.name} to 0.`,
        where,
      ));
    }
  }
  return diags;
}

function stringHandler(password: boolean): TypeHandler {
  return {
    validate: validateString,
    create(req) {
      const result = generateString(stringSpec(req.type, req.config));
      const computed: Attrs = { result, id: password ? "none" : result };
      if (password) computed.bcrypt_hash = bcrypt(result, BCRYPT_COST, cryptoBytes(16));
      return Promise.resolve(ok(stateOf(req.type, req.config, computed)));
    },
    delete: forgetOnly,
    import: importString(password ? (v) => bcrypt(v, BCRYPT_COST, cryptoBytes(16)) : undefined),
    importFormat: STRING_FORMAT,
  };
}

const ephemeralPassword: TypeHandler = {
  validate: validateString,
  open(req) {
    const result = generateString(stringSpec(req.type, req.config));
    return Promise.resolve(ok(stateOf(req.type, req.config, { result })));
  },
};

// ---------------------------------------------------------------------------
// The other types

const randomInteger: TypeHandler = {
  validate(req) {
    const min = knownInt(req, "min");
    const max = knownInt(req, "max");
    if (min === undefined || max === undefined || min <= max) return [];
    return [error(
      `Invalid range: min ${min} is greater than max ${max}`,
      "random_integer chooses a value between min and max inclusive. Set min to at most max.",
      { address: req.address },
    )];
  },
  create(req) {
    const min = BigInt(int(req.type, req.config, "min") ?? 0);
    const max = BigInt(int(req.type, req.config, "max") ?? 0);
    if (min > max) {
      return Promise.resolve(fail(
        req.address,
        `Invalid range: min ${min} is greater than max ${max}`,
        "random_integer chooses a value between min and max inclusive. Set min to at most max.",
      ));
    }
    const seed = str(req.type, req.config, "seed");
    const source = seed === undefined ? cryptoBytes : seededBytes(seed);
    const result = Number(min + randomBelow(max - min + 1n, source));
    return Promise.resolve(ok(stateOf(req.type, req.config, { result, id: String(result) })));
  },
  delete: forgetOnly,
  import: importInteger,
  importFormat: INTEGER_FORMAT,
};

const randomId: TypeHandler = {
  validate: (req) => atLeast(req, "byte_length", 1),
  create(req) {
    const bytes = cryptoBytes(int(req.type, req.config, "byte_length") ?? 0);
    const prefix = str(req.type, req.config, "prefix") ?? "";
    let dec = 0n;
    for (const b of bytes) dec = (dec << 8n) | BigInt(b);
    const id = toBase64Url(bytes);
    return Promise.resolve(ok(stateOf(req.type, req.config, {
      id,
      b64_url: prefix + id,
      b64_std: prefix + toBase64(bytes),
      hex: prefix + toHex(bytes),
      dec: prefix + dec.toString(),
    })));
  },
  delete: forgetOnly,
  import: importId,
  importFormat: ID_FORMAT,
};

const randomUuid: TypeHandler = {
  create(req) {
    const result = crypto.randomUUID();
    return Promise.resolve(ok(stateOf(req.type, req.config, { result, id: result })));
  },
  delete: forgetOnly,
  import: importUuid,
  importFormat: UUID_FORMAT,
};

const randomBytes: TypeHandler = {
  validate: (req) => atLeast(req, "length", 1),
  create(req) {
    const bytes = cryptoBytes(int(req.type, req.config, "length") ?? 0);
    return Promise.resolve(ok(stateOf(req.type, req.config, {
      base64: toBase64(bytes),
      hex: toHex(bytes),
      id: "none",
    })));
  },
  delete: forgetOnly,
  import: importBytes,
  importFormat: BYTES_FORMAT,
};

const randomShuffle: TypeHandler = {
  validate: (req) => atLeast(req, "result_count", 0),
  create(req) {
    const input = ((req.config.input ?? []) as unknown[]).map(String);
    const seed = str(req.type, req.config, "seed");
    const source = seed === undefined ? cryptoBytes : seededBytes(seed);
    // As Terraform: 0 or unset means as many as input; more than input repeats permutations.
    const count = int(req.type, req.config, "result_count") || input.length;
    const result: string[] = [];
    while (input.length > 0 && result.length < count) {
      result.push(...shuffle(input, source).slice(0, count - result.length));
    }
    return Promise.resolve(ok(stateOf(req.type, req.config, { result, id: "-" })));
  },
  delete: forgetOnly,
};

const randomPet: TypeHandler = {
  validate: (req) => atLeast(req, "length", 1),
  create(req) {
    const length = int(req.type, req.config, "length") ?? 2;
    const separator = str(req.type, req.config, "separator") ?? "-";
    const prefix = str(req.type, req.config, "prefix");
    const id = petName(length, separator, cryptoBytes);
    const full = prefix === undefined ? id : `${prefix}${separator}${id}`;
    return Promise.resolve(ok(stateOf(req.type, req.config, { id: full })));
  },
  delete: forgetOnly,
};

// ---------------------------------------------------------------------------
// Pet names, in the manner of Terraform's (dustinkirkland/golang-petname):
// one word is an animal, two an adjective and an animal, more put adverbs first.

const ADVERBS = `ably actively amazingly blindly boldly briefly brightly busily calmly carefully
  certainly cheaply clearly closely correctly daily deadly deeply directly eagerly early easily
  equally evenly exactly fairly finally firmly freely fully gently gladly greatly happily
  hardly highly honestly hugely humbly jointly kindly largely lively loudly mainly merely
  mostly neatly nicely openly partly politely presently previously quickly quietly rapidly
  rarely really regularly safely seemingly sharply simply slowly smoothly solely strongly
  surely sweetly truly usually vastly verbally wholly widely wildly willingly wisely`;

const ADJECTIVES = `able active adapted adequate allowed amazing amused apparent awake aware
  balanced becoming big bold brave bright busy calm capable careful casual causal charming
  cheerful civil clean clear clever close comic communal complete concise cool correct cosmic
  crack creative credible crisp cuddly curious daring decent deep dear direct driven dynamic
  eager easy electric enabled endless enormous epic equal evolved exact excited expert fair
  famous fancy fast feasible fine firm fit flexible fluent flying fond frank free fresh full
  funky game generous gentle genuine giving glad golden good grand great growing guided handy
  happy hardy harmless healthy helped helpful heroic hip holy honest hopeful huge humane humble
  ideal immense improved informed innocent inspired intent joint just keen key kind known large
  legal liberal light live loved loyal lucky magical main major many massive master mature
  merry mint modest moral moving musical mutual natural neat needed new next nice noble normal
  notable novel obliging open optimal organic`;

const ANIMALS = `aardvark albatross alpaca anchovy ant antelope ape baboon badger barnacle bass
  bat bear beaver bee beetle bison boa boar bobcat buck buffalo bull bunny buzzard calf camel
  caribou cat catfish cattle chamois cheetah chicken chimp chipmunk cicada clam cobra cod colt
  condor cougar cow coyote crab crane crow cub deer dingo doe dodo dog dolphin donkey dove
  dragon duck eagle eel egret elephant elk emu falcon ferret finch firefly fish flamingo fly
  foal fox frog gazelle gecko gibbon giraffe gnat gnu goat goose gopher gorilla grouse gull
  hamster hare hawk hedgehog heron hippo hog hornet horse hound hyena ibex iguana impala jackal
  jaguar jay kangaroo kid kingfish kit kite kitten koala lamb lark lemming lemur leopard lion
  lizard llama lobster locust loon lynx macaw magpie mako mallard mammal manatee mantis marlin
  marmot marten mastiff mayfly meerkat mink minnow mole molly mongoose monkey moose moth mouse
  mule mustang newt ocelot octopus oriole osprey ostrich otter owl ox oyster panda panther
  parrot peacock pegasus pelican penguin pheasant pig pigeon piglet pika polecat pony poodle
  porpoise possum prawn puma pup python quagga quail rabbit raccoon ram rat raven redbird
  reindeer rhino robin rooster salmon sawfly scorpion seal shark sheep shrew shrimp skink skunk
  sloth slug snail snake sparrow spider squid squirrel stag starling stork sunbeam swan swift
  tadpole tahr tapir termite tern tiger toad tortoise toucan trout tuna turkey turtle unicorn
  urchin vervet viper vulture walrus warthog wasp weasel whale whippet wildcat wolf wombat
  worm wren yak zebra`;

const words = (s: string) => s.split(/\s+/).filter((w) => w.length > 0);

/** A pet name of `length` words joined by `separator`. */
export function petName(length: number, separator: string, source: ByteSource): string {
  const pick = (list: string[]) => list[randomIndex(list.length, source)];
  const out: string[] = [];
  for (let i = 0; i < length - 2; i++) out.push(pick(words(ADVERBS)));
  if (length >= 2) out.push(pick(words(ADJECTIVES)));
  if (length >= 1) out.push(pick(words(ANIMALS)));
  return out.join(separator);
}

// ---------------------------------------------------------------------------
// bcrypt ($2a$, as Go's golang.org/x/crypto/bcrypt writes it for Terraform)

const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function bcryptBase64(bytes: Uint8Array): string {
  return [...toBase64(bytes).replace(/=+$/, "")]
    .map((c) => BCRYPT_ALPHABET[STD_ALPHABET.indexOf(c)]).join("");
}

/** Decodes bcrypt's base64 (a salt of 22 characters gives 16 bytes). */
export function bcryptDecode(s: string): Uint8Array {
  const std = [...s].map((c) => STD_ALPHABET[BCRYPT_ALPHABET.indexOf(c)]).join("");
  const out = Uint8Array.from(
    atob(std + "=".repeat((4 - (std.length % 4)) % 4)),
    (c) => c.charCodeAt(0),
  );
  return out.subarray(0, Math.floor((s.length * 6) / 8));
}

/** Blowfish's initial P-array and S-boxes: the fractional hex digits of pi. */
let blowfishInit: Uint32Array | undefined;

function piWords(count: number): Uint32Array {
  const bits = BigInt(count * 32 + 64); // 64 guard bits absorb the truncation of each term
  const one = 1n << bits;
  const atanInv = (x: bigint) => {
    let sum = 0n;
    let term = one / x;
    let neg = false;
    for (let n = 1n; term !== 0n; n += 2n, neg = !neg, term /= x * x) {
      sum += neg ? -(term / n) : term / n;
    }
    return sum;
  };
  let v = (16n * atanInv(5n) - 4n * atanInv(239n) - 3n * one) >> 64n; // Machin's formula
  const out = new Uint32Array(count);
  for (let i = count - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffffffffn);
    v >>= 32n;
  }
  return out;
}

/**
 * bcrypt of a password with a cost and a 16-byte salt, as `$2a$cc$` followed
 * by 22 characters of salt and 31 of hash. Only the first 72 bytes of the
 * password count, as in every bcrypt.
 */
export function bcrypt(password: string, cost: number, salt: Uint8Array): string {
  blowfishInit ??= piWords(18 + 1024);
  const P = blowfishInit.slice(0, 18);
  const S = blowfishInit.slice(18);
  const key = new Uint8Array([...new TextEncoder().encode(password), 0]).subarray(0, 72);
  const F = (x: number) =>
    (((S[x >>> 24] + S[256 | ((x >>> 16) & 0xff)]) ^ S[512 | ((x >>> 8) & 0xff)]) +
      S[768 | (x & 0xff)]) | 0;
  const lr = [0, 0];
  const encipher = () => {
    let l = lr[0] ^ P[0];
    let r = lr[1];
    for (let i = 1; i < 17; i += 2) {
      r ^= F(l) ^ P[i];
      l ^= F(r) ^ P[i + 1];
    }
    lr[0] = r ^ P[17];
    lr[1] = l;
  };
  const stream = (data: Uint8Array) => {
    let pos = 0;
    return () => {
      let w = 0;
      for (let i = 0; i < 4; i++, pos = (pos + 1) % data.length) w = (w << 8) | data[pos];
      return w;
    };
  };
  const expand = (k: Uint8Array, s?: Uint8Array) => {
    const kw = stream(k);
    for (let i = 0; i < 18; i++) P[i] ^= kw();
    const sw = s ? stream(s) : () => 0;
    lr[0] = lr[1] = 0;
    for (const box of [P, S]) {
      for (let i = 0; i < box.length; i += 2) {
        lr[0] ^= sw();
        lr[1] ^= sw();
        encipher();
        box[i] = lr[0];
        box[i + 1] = lr[1];
      }
    }
  };
  expand(key, salt);
  for (let i = 0; i < 2 ** cost; i++) {
    expand(key);
    expand(salt);
  }
  const text = stream(new TextEncoder().encode("OrpheanBeholderScryDoubt"));
  const words = Array.from({ length: 6 }, text);
  for (let n = 0; n < 64; n++) {
    for (let i = 0; i < 6; i += 2) {
      [lr[0], lr[1]] = [words[i], words[i + 1]];
      encipher();
      [words[i], words[i + 1]] = lr;
    }
  }
  const hash = new Uint8Array(24);
  words.forEach((w, i) => new DataView(hash.buffer).setUint32(i * 4, w >>> 0));
  const c = String(cost).padStart(2, "0");
  return `$2a$${c}$${bcryptBase64(salt)}${bcryptBase64(hash.subarray(0, 23))}`;
}

// ---------------------------------------------------------------------------

export const RANDOM_RUNTIME: ProviderRuntime = {
  source: "hashicorp/random",
  handlers: {
    managed: {
      random_bytes: randomBytes,
      random_id: randomId,
      random_integer: randomInteger,
      random_password: stringHandler(true),
      random_pet: randomPet,
      random_shuffle: randomShuffle,
      random_string: stringHandler(false),
      random_uuid: randomUuid,
    },
    ephemeral: { random_password: ephemeralPassword },
  },
};
