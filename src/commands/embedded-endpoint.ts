// Moved to purchase/ (the call-site script rewrites their imports).
export * from '../purchase/embedded-endpoint.js';
