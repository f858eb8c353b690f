'use strict';
// CPU time a process has used so far (user + system), from /proc: what the benchmarks
// divide by the requests of a run to print CPU per request of each process.
const fs = require('node:fs');

const TICK_MS = 1000 / 100; // USER_HZ

/** `pid` may be a list (the nodes of a Redis Cluster): their CPU summed. */
function cpuMs(pid) {
  if (Array.isArray(pid)) return pid.reduce((sum, one) => sum + cpuMs(one), 0);
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * Time the process's threads spent runnable but waiting for a CPU (ms, from
 * /proc/<pid>/task/<tid>/schedstat; threads that ended are not counted): on a shared
 * machine, how much of a run's wall time other processes took.
 */
function cpuWaitMs(pid) {
  let waited = 0;
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        waited += Number(
          fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1],
        );
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return 0;
  }
  return waited / 1e6;
}

module.exports = { cpuMs, cpuWaitMs };
