'use strict';
// CPU time a process has used so far (user + system), from /proc: what the benchmarks
// divide by the requests of a run to print CPU per request of each process.
const fs = require('node:fs');

const TICK_MS = 1000 / 100; // USER_HZ

function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

module.exports = { cpuMs };
