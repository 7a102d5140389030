// The error classes by family, under the one name every layer imports them by.
export * from './errors/agentpay-error.js';
export * from './errors/exit-codes.js';
export * from './errors/gateway-errors.js';
export * from './errors/local-errors.js';
export * from './errors/purchase-errors.js';
