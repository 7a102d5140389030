// Preloaded by tests with `node --require` in front of bin/agentpay.js: every read of the
// ledger's rows (node:sqlite's StatementSync#all) throws a plain TypeError, a bug no error class
// of agentpay describes, so the test sees what an internal error looks like (`history` reads so).
'use strict';

const { StatementSync } = require('node:sqlite');

StatementSync.prototype.all = () => {
  throw new TypeError('injected fault: read is broken');
};
