'use strict';
// node-postgres's crypto helpers (node_modules/pg/lib/crypto/utils.js, the same exports) on
// node:crypto instead of WebCrypto: the bundle's stand-in for them (scripts/bundle.mjs). Web
// Crypto's first use loads a tree of Node internals; SCRAM's PBKDF2, HMAC and SHA-256 take
// ~1.5 ms here against ~4 ms there, on every connection to a team ledger. Same results: the
// SCRAM login of every PostgreSQL test runs through the bundle.
const nodeCrypto = require('node:crypto');

const md5Hex = (data) => nodeCrypto.createHash('md5').update(data, 'utf-8').digest('hex');

module.exports = {
  randomBytes: (length) => nodeCrypto.randomBytes(length),
  md5: async (data) => md5Hex(data),
  postgresMd5PasswordHash: async (user, password, salt) => `md5${md5Hex(Buffer.concat([Buffer.from(md5Hex(password + user)), salt]))}`,
  sha256: async (data) => nodeCrypto.createHash('sha256').update(Buffer.from(data)).digest(),
  // WebCrypto's names (SHA-256) as node:crypto's (sha256).
  hashByName: async (name, data) => nodeCrypto.createHash(name.replace('-', '').toLowerCase()).update(Buffer.from(data)).digest(),
  hmacSha256: async (key, message) => nodeCrypto.createHmac('sha256', Buffer.from(key)).update(message).digest(),
  deriveKey: async (password, salt, iterations) => nodeCrypto.pbkdf2Sync(password, salt, iterations, 32, 'sha256'),
};
