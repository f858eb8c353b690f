'use strict';
// The embedded mail catcher (docs/double-opt-in.md, "Mail catcher"): an SMTP server on
// loopback (smtp-server) that keeps every message it is given in memory (parsed by
// mailparser) and a small web inbox beside it, so a newcomer running `npm start` sees the
// confirmation message and clicks its link. Never for production: SMTP_URL names the real
// server there. Started by scripts/lib/engines.js (npm start, the test harness).
//
//   node scripts/mail-catcher.js --smtp-port 1025 --http-port 1080
//
// HTTP: GET /            the inbox (HTML, newest first)
//       GET /messages    every message as JSON ({ id, from, to, subject, date, text, html, messageId })
//       GET /messages/ID/html   one message's HTML body, as sent
//       DELETE /messages  empties the inbox
const http = require('node:http');
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');

const KEPT = 1000;

function argument(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const messages = [];
let nextId = 1;

const smtp = new SMTPServer({
  // Loopback only, no TLS, any (or no) credentials: a development catcher.
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onAuth(_auth, _session, callback) {
    callback(null, { user: 'catcher' });
  },
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        messages.push({
          id: String(nextId++),
          from: parsed.from?.text ?? session.envelope.mailFrom?.address ?? '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: parsed.subject ?? '',
          date: new Date().toISOString(),
          messageId: parsed.messageId ?? null,
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
        });
        if (messages.length > KEPT) messages.splice(0, messages.length - KEPT);
        callback();
      })
      .catch(callback);
  },
});

const escape = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function inboxPage() {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<li><b>${escape(m.subject)}</b> to ${escape(m.to.join(', '))} <small>${escape(m.date)}</small>` +
        ` · <a href="/messages/${m.id}/html">open</a><pre>${escape(m.text)}</pre></li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mail catcher</title>
<style>body{font:15px/1.4 system-ui,sans-serif;max-width:60rem;margin:1rem auto}li{margin:1rem 0;border-top:1px solid #ddd;padding-top:.5rem}pre{white-space:pre-wrap;background:#f6f6f8;padding:.5rem}</style>
</head><body><h1>Mail catcher</h1><p>${messages.length} message(s), newest first. Nothing here leaves this machine.</p><ul>${rows}</ul></body></html>`;
}

const web = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://localhost');
  if (request.method === 'DELETE' && url.pathname === '/messages') {
    messages.length = 0;
    response.writeHead(204).end();
    return;
  }
  if (request.method !== 'GET') {
    response.writeHead(405).end();
    return;
  }
  if (url.pathname === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(inboxPage());
    return;
  }
  if (url.pathname === '/messages') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages));
    return;
  }
  const one = /^\/messages\/(\d+)\/html$/.exec(url.pathname);
  const message = one && messages.find((m) => m.id === one[1]);
  if (message) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(message.html);
    return;
  }
  response.writeHead(404).end();
});

const smtpPort = Number(argument('smtp-port', '1025'));
const httpPort = Number(argument('http-port', '1080'));
smtp.listen(smtpPort, '127.0.0.1', () => {
  web.listen(httpPort, '127.0.0.1', () => {
    process.stdout.write(
      `mail catcher: smtp 127.0.0.1:${smtpPort}, inbox http://127.0.0.1:${httpPort}/\n`,
    );
  });
});
const stop = () => {
  smtp.close(() => undefined);
  web.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
