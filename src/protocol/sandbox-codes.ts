import type { CodeTable } from './codes.js';

// The sandbox's own ResponseStatus codes (docs/sandbox.md; the spec lists only 10): its server answers
// with them, and sandboxCodeTable classifies them under --sandbox.
export const sandboxCodes = {
  success: 10,
  inProgress: 11,
  badCredentials: 20,
  unknownService: 21,
  accountRefused: 22,
  amountMismatch: 23,
  unknownInvoice: 24,
  transactionNotFound: 25,
  badRequest: 26,
  currencyNotAccepted: 27,
  unknownRequestType: 28,
  providerError: 29,
} as const;

const { success: _success, inProgress, transactionNotFound, ...refusals } = sandboxCodes;

// The code table under --sandbox: every refusal is final. Only here: a real gateway's table starts empty
// (README "Connecting to a real gateway").
export const sandboxCodeTable: CodeTable = {
  pending: new Set([String(inProgress)]),
  notFound: new Set([String(transactionNotFound)]),
  failed: new Set(Object.values(refusals).map(String)),
};
