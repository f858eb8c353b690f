'use strict';
// The container HEALTHCHECK of deploy/Dockerfile: GET /health/ready on this container's own
// port and exit 0 on 200, 1 otherwise (503: the engine or Redis does not answer; no answer
// within 2.5 s; refused). node:20-slim has no curl or wget, so node itself asks.
//   node deploy/healthcheck.js api      port PORT (3000); HTTPS when TLS_CERT_FILE is set
//   node deploy/healthcheck.js worker   port WORKER_HEALTH_PORT (the worker's listener)
const http = require('node:http');
const https = require('node:https');

const role = process.argv[2] === 'worker' ? 'worker' : 'api';
const port = Number(role === 'worker' ? process.env.WORKER_HEALTH_PORT : process.env.PORT || 3000);
if (!port) {
  console.error(`healthcheck: no port for the ${role} (WORKER_HEALTH_PORT unset or 0)`);
  process.exit(1);
}
const secure = role === 'api' && Boolean(process.env.TLS_CERT_FILE);
const client = secure ? https : http;
const request = client.get(
  { host: '127.0.0.1', port, path: '/health/ready', timeout: 2500, rejectUnauthorized: false },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
  console.error(`healthcheck: ${error.message}`);
  process.exit(1);
});
