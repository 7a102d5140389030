// Preloaded by tests with `node --require` in front of bin/agentpay.js: every read of a file
// through a stream or fs.read throws a plain TypeError, a bug no error class of agentpay
// describes, so the test sees what an internal error looks like (`history` reads the journal
// so: fs.read on the descriptor it reads twice).
'use strict';

const fs = require('node:fs');

fs.createReadStream = () => {
  throw new TypeError('injected fault: createReadStream is broken');
};

fs.read = () => {
  throw new TypeError('injected fault: read is broken');
};
