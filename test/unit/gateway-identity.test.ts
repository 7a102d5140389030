import { describe, expect, it } from 'vitest';
import { gatewayIdentity } from '../../src/protocol/gateway-identity.js';
import { baseUrl } from '../../src/settings/parsers.js';

describe('gatewayIdentity: one name for one gateway', () => {
  it.each([
    ['HTTP://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['http://LOCALHOST:8080', 'http://127.0.0.1:8080'],
    ['http://localhost.:8080//', 'http://127.0.0.1:8080'],
    ['https://Gateway.Example:443/api/', 'https://gateway.example/api'],
    ['http://gateway.example:80/api/./v1/../v2', 'http://gateway.example/api/v2'],
    ['https://gateway.example:8443/API', 'https://gateway.example:8443/API'],
    ['http://127.1:8080', 'http://127.0.0.1:8080'],
    ['https://шлюз.example/путь', 'https://xn--g1ah2bza.example/%D0%BF%D1%83%D1%82%D1%8C'],
  ])('%s is %s', (spelling, identity) => {
    expect(gatewayIdentity(spelling)).toBe(identity);
    expect(gatewayIdentity(identity)).toBe(identity);
  });

  it('leaves a name that is no http(s) URL as it is: sandbox, replay', () => {
    for (const name of ['sandbox', 'replay', 'ftp://gateway.example']) expect(gatewayIdentity(name)).toBe(name);
  });

  it('keeps other names of a host apart: a DNS name is not its address, [::1] not 127.0.0.1', () => {
    expect(gatewayIdentity('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(gatewayIdentity('http://gateway.example')).not.toBe(gatewayIdentity('http://www.gateway.example'));
  });
});

describe('--base-url: the form sent to', () => {
  it.each([
    ['HTTPS://Gateway.Example:443/', 'https://gateway.example'],
    ['http://LOCALHOST:8080/api//', 'http://localhost:8080/api'],
  ])('%s is sent to as %s (localhost stays localhost: only the ledger key is 127.0.0.1)', (given, form) => {
    expect(baseUrl(given, 'flag')).toBe(form);
  });
});
