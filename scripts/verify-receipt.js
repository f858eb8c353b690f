#!/usr/bin/env node
/*
 * Offline verification of consent receipts and of a profile's hash chain (docs/receipts.md).
 *
 *   npm run verify-receipt -- FILE [--key KEYS] [--categories consent,preference] [--head HASH]
 *
 * FILE is either
 *   - a receipt (GET /Profiles/v4/{clientId}/Profile/{profileId}/ConsentReceipts/{entryId}):
 *     the Ed25519 signature over the canonical JSON (RFC 8785) of `Receipt`, the statement
 *     against the entry, the entry's content hash and the proof's chain from its start; or
 *   - a profile's export (a JSON object with `History`, the profile's history entries as
 *     stored, and `ClientId`/`ProfileId`): the whole chain of its consent and preference
 *     entries; `--head` (or the export's `HistoryChainHead`) also checks where it ends.
 *
 * --key KEYS: the public key(s) to trust, pinned from GET /Profiles/v4/ReceiptKeys: that JWK
 * set, one JWK, or an SPKI PEM public key. Without it the key inside the receipt is used,
 * which only proves the receipt is self-consistent (a warning says so).
 *
 * Prints OK or what fails; exit code 0 when everything verifies, 1 otherwise. Plain Node (no
 * build): the same rules as libs/profiles/src/domain/history-chain.ts and
 * libs/consents/src/receipts/domain/receipt.ts, with the same canonicalization package.
 */
'use strict';

const { createHash, createPublicKey, verify } = require('node:crypto');
const { readFileSync } = require('node:fs');
const canonicalize = require('canonicalize');

const DEFAULT_CATEGORIES = ['consent', 'preference'];

function usage(message) {
  if (message) console.error(message);
  console.error(
    'usage: npm run verify-receipt -- FILE [--key KEYS] [--categories consent,preference] [--head HASH]',
  );
  process.exit(1);
}

function parseArgs(argv) {
  const args = { file: undefined, key: undefined, categories: undefined, head: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--key') args.key = value();
    else if (arg === '--categories') args.categories = value().split(',').filter(Boolean);
    else if (arg === '--head') args.head = value();
    else if (arg === '--help' || arg === '-h') usage();
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (args.file === undefined) args.file = arg;
    else usage(`one FILE only (got ${args.file} and ${arg})`);
  }
  if (!args.file) usage('FILE is required');
  return args;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    usage(`cannot read ${file} as JSON: ${error.message}`);
  }
}

/* ---- the chain (history-chain.ts) ---- */

function canonicalText(entry) {
  const content = { ...entry };
  delete content.hash;
  return canonicalize(content);
}

function entryHash(entry) {
  return createHash('sha256').update(canonicalText(entry), 'utf8').digest('hex');
}

const entryId = (entry) => `${entry.seq}.${entry.n}`;

/** verifyHistoryChain: the problems of a profile's entries, as strings. */
function chainProblems(entries, categories, expectedHead) {
  const chained = new Set(categories);
  const ordered = entries
    .filter((entry) => chained.has(entry.category))
    .sort((a, b) => a.seq - b.seq || a.n - b.n);
  const problems = [];
  let started = false;
  let unchained = 0;
  let checked = 0;
  let previous = null;
  let lastId = null;
  for (const entry of ordered) {
    const id = entryId(entry);
    if (typeof entry.hash !== 'string') {
      if (!started && entry.prevHash === undefined) {
        unchained++;
        continue;
      }
      problems.push(`entry ${id}: missing-hash (a ${entry.category} entry without a hash)`);
      checked++;
      lastId = id;
      continue;
    }
    started = true;
    checked++;
    lastId = id;
    const actual = entryHash(entry);
    if (actual !== entry.hash) {
      problems.push(
        `entry ${id}: content-hash-mismatch (content hashes to ${actual}, the entry says ${entry.hash})`,
      );
    }
    const link = entry.prevHash === undefined ? null : entry.prevHash;
    if (link !== previous) {
      problems.push(
        `entry ${id}: broken-link (prevHash ${link}, expected ${previous === null ? 'null: the chain starts here' : previous})`,
      );
    }
    previous = entry.hash;
  }
  if (expectedHead !== undefined && expectedHead !== previous) {
    problems.push(
      `entry ${lastId}: head-mismatch (the chain ends at ${previous}, the profile saved ${expectedHead})`,
    );
  }
  return { problems, checked, unchained, head: previous };
}

/* ---- keys and receipts (receipt.ts) ---- */

function thumbprint(x) {
  return createHash('sha256')
    .update(canonicalize({ crv: 'Ed25519', kty: 'OKP', x }), 'utf8')
    .digest('base64url');
}

function jwkOfPublicKey(publicKey) {
  if (publicKey.asymmetricKeyType !== 'ed25519') {
    usage(`the key is ${publicKey.asymmetricKeyType}, not Ed25519`);
  }
  const { x } = publicKey.export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x) };
}

/** The trusted keys of a --key file: a JWK set, one JWK, or an SPKI PEM. */
function readTrustedKeys(file) {
  const text = readFileSync(file, 'utf8');
  if (text.includes('-----BEGIN')) {
    try {
      return [jwkOfPublicKey(createPublicKey(text))];
    } catch (error) {
      usage(`cannot read ${file} as a PEM public key: ${error.message}`);
    }
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    usage(`${file} is neither a PEM public key nor JSON: ${error.message}`);
  }
  const keys = Array.isArray(json.keys) ? json.keys : [json];
  return keys.map((key) => {
    if (key.kty !== 'OKP' || key.crv !== 'Ed25519' || typeof key.x !== 'string') {
      usage(`${file}: a key is not an Ed25519 JWK (kty OKP, crv Ed25519, x)`);
    }
    // The kid is recomputed: a key file cannot lend its kid to another key.
    return { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: thumbprint(key.x) };
  });
}

function verifyReceipt(receipt, trusted) {
  const problems = [];
  const statement = receipt.Receipt;
  const entry = receipt.Entry;
  const proof = Array.isArray(receipt.Proof) ? receipt.Proof : [];
  const jwk = trusted.find((key) => key.kid === statement.KeyId);
  if (!jwk) {
    problems.push(`no trusted key has the receipt's KeyId ${statement.KeyId}`);
  } else {
    let valid = false;
    try {
      const publicKey = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
        format: 'jwk',
      });
      valid = verify(
        null,
        Buffer.from(canonicalize(statement), 'utf8'),
        publicKey,
        Buffer.from(String(receipt.Signature), 'base64url'),
      );
    } catch {
      valid = false;
    }
    if (!valid) problems.push('the signature does not verify');
  }
  const expected = [
    ['ClientId', statement.ClientId, entry.clientId],
    ['ProfileId', statement.ProfileId, entry.profileId],
    ['EntryId', statement.EntryId, entryId(entry)],
    ['Category', statement.Category, entry.category],
    ['EntryHash', statement.EntryHash, entry.hash],
    ['ChainPosition', statement.ChainPosition, proof.length + 1],
  ];
  for (const [field, stated, actual] of expected) {
    if (stated !== actual) problems.push(`Receipt.${field} ${stated} is not the entry's ${actual}`);
  }
  let previous = null;
  let redacted = 0;
  for (const item of [...proof, entry]) {
    const id = entryId(item);
    if (item.redacted === true) redacted++;
    else {
      const actual = entryHash(item);
      if (actual !== item.hash) {
        problems.push(
          `entry ${id}: content-hash-mismatch (content hashes to ${actual}, the entry says ${item.hash})`,
        );
      }
    }
    const link = item.prevHash === undefined ? null : item.prevHash;
    if (link !== previous) {
      problems.push(`entry ${id}: broken-link (prevHash ${link}, expected ${previous})`);
    }
    previous = item.hash === undefined ? null : item.hash;
  }
  return { problems, redacted };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const document = readJson(args.file);
  if (document && typeof document === 'object' && document.Receipt && document.Entry) {
    let trusted;
    if (args.key) trusted = readTrustedKeys(args.key);
    else {
      const own = document.PublicKey;
      if (!own || typeof own.x !== 'string') usage('the receipt holds no PublicKey: pass --key');
      console.warn(
        "warning: no --key given: the receipt's own PublicKey was used; pin the keys of GET /Profiles/v4/ReceiptKeys with --key",
      );
      trusted = [{ kty: 'OKP', crv: 'Ed25519', x: own.x, kid: thumbprint(own.x) }];
    }
    const { problems, redacted } = verifyReceipt(document, trusted);
    const { Receipt: r } = document;
    if (problems.length) {
      console.log(
        `FAILED: receipt of entry ${r.EntryId} of profile ${r.ProfileId} (client ${r.ClientId})`,
      );
      for (const problem of problems) console.log(`  ${problem}`);
      process.exit(1);
    }
    console.log(
      `OK: receipt of entry ${r.EntryId} of profile ${r.ProfileId} (client ${r.ClientId}): signature by key ${r.KeyId}, entry hash ${r.EntryHash}, chain of ${r.ChainPosition} entries from its start${redacted ? ` (${redacted} given by their hashes only)` : ''}`,
    );
    return;
  }
  if (document && typeof document === 'object' && Array.isArray(document.History)) {
    const categories = args.categories ?? DEFAULT_CATEGORIES;
    const head =
      args.head !== undefined
        ? args.head
        : document.HistoryChainHead !== undefined
          ? document.HistoryChainHead
          : undefined;
    const entries = document.History.map((entry) =>
      typeof entry === 'string' ? JSON.parse(entry) : entry,
    );
    const problems = [];
    for (const entry of entries) {
      if (document.ClientId !== undefined && entry.clientId !== document.ClientId) {
        problems.push(
          `entry ${entryId(entry)}: clientId ${entry.clientId} is not the export's ${document.ClientId}`,
        );
      }
      if (document.ProfileId !== undefined && entry.profileId !== document.ProfileId) {
        problems.push(
          `entry ${entryId(entry)}: profileId ${entry.profileId} is not the export's ${document.ProfileId}`,
        );
      }
    }
    const chain = chainProblems(entries, categories, head);
    problems.push(...chain.problems);
    const who = `profile ${document.ProfileId} (client ${document.ClientId})`;
    if (problems.length) {
      console.log(`FAILED: hash chain of ${who}`);
      for (const problem of problems) console.log(`  ${problem}`);
      process.exit(1);
    }
    console.log(
      `OK: hash chain of ${who}: ${chain.checked} chained entries verify${chain.unchained ? `, ${chain.unchained} recorded before the chain began (not checked)` : ''}${head !== undefined ? ', ends at the saved head' : ''}; head ${chain.head}`,
    );
    return;
  }
  usage(`${args.file} is neither a receipt (Receipt, Entry) nor an export (History)`);
}

main();
