'use strict';
// The part of undici agentpay uses (src/gateway/undici-transport.ts), wired as undici's own
// index.js wires it: its dispatchers, with the API methods (request, connect, ...) on their
// prototype, which ProxyAgent's CONNECT tunnel calls. It is the entry point of
// dist/vendor/undici.bundle.cjs (scripts/bundle.mjs). undici's index.js also loads fetch,
// WebSocket, the caches, the mocks and the interceptors, and through them Node's own copy of
// undici, web streams, zlib, worker_threads and perf_hooks: ~60 ms of CPU in a 1,000-row
// bulk run, for code agentpay never calls (docs/performance.md). The build checks that index.js
// still wires these the same way, and that the bundle exports every name src imports from undici.
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const Pool = require('undici/lib/dispatcher/pool');
const Agent = require('undici/lib/dispatcher/agent');
const ProxyAgent = require('undici/lib/dispatcher/proxy-agent');
const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent');
const api = require('undici/lib/api');

Object.assign(Dispatcher.prototype, api);

module.exports = { Dispatcher, Pool, Agent, ProxyAgent, EnvHttpProxyAgent };
