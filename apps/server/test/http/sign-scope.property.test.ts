import { signCall, type AuthDat, type Envelope } from '@sunwatch/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignPolicy } from '../../src/config.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { installTestActions, TEST_ACTIONS, type EchoDat } from '../test-actions.js';

/**
 * Property (attacker report, finding 1): for random valid signed calls, any added, duplicated,
 * re-encoded or moved parameter either leaves the call's meaning unchanged or is refused, under
 * both sign policies. "Meaning" is what the handler receives: the echo actions answer the
 * parameters they saw. The one documented exception: in the `compatible` policy a read action
 * accepts additional unsigned parameters (wire-protocol.md §4 rule 2 clients); even there every
 * signed parameter keeps its signed value.
 */
type Env<T = unknown> = Envelope<T>;
type Pair = [string, string];

const rfc3986 = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
/** The six client encodings of wire-protocol.md §4 (what goes on the wire is what is signed). */
const ENCODINGS: Array<(v: string) => string> = [
  (v) => v.replace(/[&=#%+?]/g, (c) => encodeURIComponent(c)),
  (v) => encodeURIComponent(v),
  (v) => encodeURIComponent(v).replace(/%20/g, '+'),
  (v) => rfc3986(v).replace(/%(20|3A|2C|40|24|28|29)/g, (m) => decodeURIComponent(m)),
  (v) => rfc3986(v).replace(/%20/g, '+'),
  (v) => rfc3986(v).replace(/%20/g, '+').replace(/~/g, '%7E'),
];

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/\+/g, ' ');
  }
}

interface ValidCall {
  action: 'testEchoRead' | 'testEchoWrite';
  params: Array<[string, string]>;
  encoding: number;
}

const value = fc.string({
  maxLength: 10,
  unit: fc.constantFrom('a', 'Z', '1', ' ', '@', ':', ',', '(', '~', '$', '&', '=', '+', '%', 'é', '€'),
});
const validCall: fc.Arbitrary<ValidCall> = fc.record({
  action: fc.constantFrom('testEchoRead' as const, 'testEchoWrite' as const),
  params: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'plantid', 'i18n', 'source'), value), {
    selector: ([k]) => k,
    maxLength: 4,
  }),
  encoding: fc.integer({ min: 0, max: ENCODINGS.length - 1 }),
});

type Mutation =
  | { kind: 'add'; key: string; value: string; at: number }
  | { kind: 'duplicate'; from: number; at: number; encodeKey: boolean }
  | { kind: 'reencode'; index: number; inKey: boolean; char: number }
  | { kind: 'move'; from: number; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    key: fc.constantFrom('a', 'b', 'plantid', 'x', 'i18n', 'source', '_app_id_', 'uid'),
    value: value.map(encodeURIComponent),
    at: fc.nat(),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), from: fc.nat(), at: fc.nat(), encodeKey: fc.boolean() }),
  fc.record({ kind: fc.constant('reencode' as const), index: fc.nat(), inKey: fc.boolean(), char: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), from: fc.nat(), at: fc.nat() }),
);

/** Percent-encodes the character at `i` (of a raw component), if it is a plain one. */
function reencodeAt(text: string, i: number): string {
  if (text.length === 0) return text;
  const k = i % text.length;
  const c = text[k]!;
  if (c === '%') return text;
  const enc = c === ' ' ? '+' : '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return text.slice(0, k) + enc + text.slice(k + 1);
}

function applyMutation(pairs: Pair[], m: Mutation): Pair[] {
  const out = pairs.map((p) => [...p] as Pair);
  const n = out.length;
  switch (m.kind) {
    case 'add':
      out.splice(m.at % (n + 1), 0, [m.key, m.value]);
      break;
    case 'duplicate': {
      const [k, v] = out[m.from % n]!;
      out.splice(m.at % (n + 1), 0, [m.encodeKey ? reencodeAt(k, m.at) : k, v]);
      break;
    }
    case 'reencode': {
      const p = out[m.index % n]!;
      if (m.inKey) p[0] = reencodeAt(p[0], m.char);
      else p[1] = reencodeAt(p[1], m.char);
      break;
    }
    case 'move': {
      const [p] = out.splice(m.from % n, 1);
      out.splice(m.at % n, 0, p!);
      break;
    }
  }
  return out;
}

const uninstall = installTestActions(Object.values(TEST_ACTIONS));
afterAll(uninstall);

describe.each(engines)('sign scope property ($name)', (engine) => {
  const servers = new Map<SignPolicy, { s: TestServer; anna: AuthDat }>();

  beforeAll(async () => {
    for (const policy of ['compatible', 'strict'] as const) {
      const s = await startTestServer(engine, { config: { signPolicy: policy } });
      const anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
      servers.set(policy, { s, anna });
    }
  });
  afterAll(async () => {
    for (const { s } of servers.values()) await s.stop();
  });

  let saltSeq = 0;
  it.each(['compatible', 'strict'] as const)('%s: a changed call keeps its meaning or is refused', async (policy) => {
    const { s, anna } = servers.get(policy)!;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(validCall, mutation, async (call, m) => {
        saltSeq += 1;
        const salt = String(s.clock.now() + saltSeq);
        const enc = ENCODINGS[call.encoding]!;
        const tailPairs: Pair[] = [['action', call.action], ...call.params.map(([k, v]): Pair => [k, enc(v)])];
        const tail = tailPairs.map(([k, v]) => `&${k}=${v}`).join('');
        const sign = signCall(salt, anna.secret, anna.token, tail);
        const original: Pair[] = [['sign', sign], ['salt', salt], ['token', anna.token], ...tailPairs];
        const meaning = {
          action: call.action,
          ...Object.fromEntries(call.params.map(([k, v]) => [k, decode(enc(v))])),
        };

        const mutated = applyMutation(original, m);
        const res = await s.request<Env<EchoDat>>(`/public/?${mutated.map(([k, v]) => `${k}=${v}`).join('&')}`);
        expect(res.status).toBe(200);
        expect(res.body.err).not.toBe(3);
        if (res.body.err !== 0) return; // refused
        accepted += 1;
        const seen = res.body.dat!.params;
        const extraAllowed = policy === 'compatible' && call.action === 'testEchoRead';
        if (extraAllowed) {
          // every signed parameter keeps its value; unsigned additions are the documented exception
          for (const [k, v] of Object.entries(meaning)) expect(seen[k], k).toBe(v);
        } else {
          expect(seen).toEqual(meaning);
        }
      }),
      { seed: 4242, numRuns: 150, interruptAfterTimeLimit: 25_000, markInterruptAsFailure: false },
    );
    // moves of sign/salt/token and harmless re-encodings are accepted: the property is not vacuous
    expect(accepted).toBeGreaterThan(10);
  });
});
