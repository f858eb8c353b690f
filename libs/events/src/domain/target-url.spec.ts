import { isPublicAddress, normalisedTargetUrl, targetUrlProblem } from './target-url';

describe('isPublicAddress', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '[2606:4700:4700::1111]',
  ])('takes the public unicast address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.255.254', 'IPv4 loopback, end of the range'],
    ['10.0.0.1', 'RFC 1918'],
    ['172.16.5.4', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['192.0.2.1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fe80::1', 'IPv6 link-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['[::1]', 'bracketed loopback'],
    ['2001:db8::1', 'documentation'],
    ['64:ff9b::7f00:1', 'NAT64 (may reach an IPv4 private address)'],
    ['not-an-ip', 'not an address'],
    ['', 'empty'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('keeps public IPv4-mapped addresses public', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
  });
});

describe('targetUrlProblem', () => {
  it('takes https URLs of public hosts', () => {
    expect(targetUrlProblem('https://hooks.example.com/events', false)).toBeNull();
    expect(targetUrlProblem('https://hooks.example.com:8443/a?b=c', false)).toBeNull();
    expect(targetUrlProblem('https://93.184.216.34/in', false)).toBeNull();
    expect(targetUrlProblem('https://[2606:4700:4700::1111]/in', false)).toBeNull();
  });

  it('refuses http unless private targets are allowed', () => {
    expect(targetUrlProblem('http://hooks.example.com/events', false)).toBe(
      'must be an https URL (not http)',
    );
    expect(targetUrlProblem('http://hooks.example.com/events', true)).toBeNull();
  });

  it('refuses other schemes and relative or malformed URLs either way', () => {
    expect(targetUrlProblem('ftp://hooks.example.com/x', false)).toBe(
      'must be an https URL (not ftp)',
    );
    expect(targetUrlProblem('file:///etc/passwd', true)).toBe(
      'must be an https or http URL (not file)',
    );
    expect(targetUrlProblem('/relative/path', false)).toBe('must be an absolute https URL');
    expect(targetUrlProblem('hooks.example.com', false)).toBe('must be an absolute https URL');
    expect(targetUrlProblem('https://', false)).toBe('must be an absolute https URL');
  });

  it('refuses credentials in the URL, private targets allowed or not', () => {
    for (const allow of [false, true]) {
      expect(targetUrlProblem('https://user:pw@hooks.example.com/', allow)).toBe(
        'must not carry credentials',
      );
      expect(targetUrlProblem('https://user@hooks.example.com/', allow)).toBe(
        'must not carry credentials',
      );
    }
  });

  it('refuses localhost and names under it', () => {
    expect(targetUrlProblem('https://localhost/x', false)).toBe(
      'must not target localhost (localhost)',
    );
    expect(targetUrlProblem('https://LOCALHOST./x', false)).toMatch(/must not target localhost/);
    expect(targetUrlProblem('https://api.localhost:3000/x', false)).toMatch(
      /must not target localhost/,
    );
    expect(targetUrlProblem('https://localhost/x', true)).toBeNull();
  });

  it('refuses literal non-public addresses, IPv4 and IPv6, in every spelling', () => {
    expect(targetUrlProblem('https://127.0.0.1/x', false)).toBe(
      'must not target a non-public address (127.0.0.1 is loopback)',
    );
    expect(targetUrlProblem('https://10.1.2.3/x', false)).toBe(
      'must not target a non-public address (10.1.2.3 is private)',
    );
    expect(targetUrlProblem('https://169.254.169.254/latest', false)).toMatch(/linkLocal/);
    expect(targetUrlProblem('https://[::1]/x', false)).toBe(
      'must not target a non-public address (::1 is loopback)',
    );
    expect(targetUrlProblem('https://[fd00::5]/x', false)).toMatch(/uniqueLocal/);
    expect(targetUrlProblem('https://[fe80::1]/x', false)).toMatch(/linkLocal/);
    expect(targetUrlProblem('https://[::ffff:127.0.0.1]/x', false)).toMatch(/loopback/);
    // Numeric forms the URL parser turns into 127.0.0.1.
    expect(targetUrlProblem('https://2130706433/x', false)).toMatch(/127\.0\.0\.1 is loopback/);
    expect(targetUrlProblem('https://0x7f.1/x', false)).toMatch(/127\.0\.0\.1 is loopback/);
    expect(targetUrlProblem('https://0.0.0.0/x', false)).toMatch(/unspecified/);
    expect(targetUrlProblem('https://224.0.0.1/x', false)).toMatch(/multicast/);
  });

  it('takes non-public targets when private targets are allowed', () => {
    expect(targetUrlProblem('http://127.0.0.1:8080/x', true)).toBeNull();
    expect(targetUrlProblem('https://[::1]/x', true)).toBeNull();
    expect(targetUrlProblem('https://192.168.0.10/x', true)).toBeNull();
  });

  it('refuses URLs over 2048 characters', () => {
    const url = `https://hooks.example.com/${'a'.repeat(2048)}`;
    expect(targetUrlProblem(url, false)).toBe('must be at most 2048 characters');
  });
});

describe('normalisedTargetUrl', () => {
  it('lower-cases scheme and host, drops the default port and trailing slashes', () => {
    expect(normalisedTargetUrl('HTTPS://Hooks.Example.COM:443/In/')).toBe(
      'https://hooks.example.com/In',
    );
    expect(normalisedTargetUrl('https://hooks.example.com')).toBe('https://hooks.example.com');
    expect(normalisedTargetUrl('https://hooks.example.com/')).toBe('https://hooks.example.com');
  });

  it('keeps the path case, the port and the query', () => {
    expect(normalisedTargetUrl('https://h.example.com:8443/a/B?x=1')).toBe(
      'https://h.example.com:8443/a/B?x=1',
    );
    expect(normalisedTargetUrl('https://h.example.com/a')).not.toBe(
      normalisedTargetUrl('https://h.example.com/A'),
    );
  });
});
