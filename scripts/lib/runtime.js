'use strict';
// The local data folder (.data/, ignored by git; DATA_DIR names another) and the runtime
// file through which a running `npm start` tells `npm run admin` where its database is.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('./engines');

// Another folder lets a second stack run from the same checkout (the README's test does).
const DATA_DIR = process.env.DATA_DIR
  ? path.resolve(process.env.DATA_DIR)
  : path.join(ROOT, '.data');
const RUNTIME_FILE = path.join(DATA_DIR, 'runtime.json');
const SECRET_FILE = path.join(DATA_DIR, 'jwt-secret');

/** The token-signing key of this installation, made once and kept with the data. */
function jwtSecret() {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  fs.mkdirSync(DATA_DIR, { recursive: true });
  if (!fs.existsSync(SECRET_FILE)) {
    fs.writeFileSync(SECRET_FILE, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return fs.readFileSync(SECRET_FILE, 'utf8').trim();
}

/** Whether a process of this id runs (a lock or runtime file's owner). */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The env of a running launcher, or null when none runs. */
function readRuntime() {
  try {
    const runtime = JSON.parse(fs.readFileSync(RUNTIME_FILE, 'utf8'));
    return isAlive(runtime.pid) ? runtime : null;
  } catch {
    return null;
  }
}

function writeRuntime(runtime) {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(RUNTIME_FILE, JSON.stringify(runtime, null, 2), { mode: 0o600 });
}

function clearRuntime() {
  try {
    const runtime = JSON.parse(fs.readFileSync(RUNTIME_FILE, 'utf8'));
    if (runtime.pid === process.pid) fs.unlinkSync(RUNTIME_FILE);
  } catch {
    // nothing to clear
  }
}

module.exports = { DATA_DIR, isAlive, jwtSecret, readRuntime, writeRuntime, clearRuntime };
