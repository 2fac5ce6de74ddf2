import { describe, expect, it } from 'vitest';
import { isIpv4MappedBytes, parseIpAddress, parseIpAddressAsWritten } from './ip-address.js';

function bytesOf(text: string): number[] | undefined {
  const address = parseIpAddress(text);
  return address === undefined ? undefined : [address.version, ...address.bytes];
}

describe('parseIpAddress: IPv4', () => {
  it.each([
    ['0.0.0.0', [4, 0, 0, 0, 0]],
    ['255.255.255.255', [4, 255, 255, 255, 255]],
    ['192.0.2.1', [4, 192, 0, 2, 1]],
    ['10.0.100.9', [4, 10, 0, 100, 9]],
  ])('accepts %s', (text, expected) => {
    expect(bytesOf(text)).toEqual(expected);
  });

  it.each([
    '',
    '256.0.0.1',
    '1.2.3.256',
    '1.2.3',
    '1.2.3.4.5',
    '010.0.0.1',
    '1.02.3.4',
    '00.1.2.3',
    '0x7f.0.0.1',
    '0177.0.0.1',
    '2130706433',
    '127.1',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2. 3.4',
    '1.2.3.4\n',
    '1..2.3',
    '.1.2.3.4',
    '1.2.3.4.',
    '1.2.3.-4',
    '+1.2.3.4',
    '1.2.3.4/32',
    '1.2.3.4:80',
    '١.٢.٣.٤', // Arabic-Indic digits are not ASCII digits
    '1111.2.3.4',
  ])('refuses %j', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });
});

describe('parseIpAddress: IPv6', () => {
  const v6 = (...groups: number[]): number[] => [6, ...groups.flatMap((g) => [g >> 8, g & 0xff])];

  it.each([
    ['::', v6(0, 0, 0, 0, 0, 0, 0, 0)],
    ['::1', v6(0, 0, 0, 0, 0, 0, 0, 1)],
    ['1::', v6(1, 0, 0, 0, 0, 0, 0, 0)],
    ['2001:db8::1', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)],
    ['2001:DB8::A:b', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0xa, 0xb)],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)],
    ['1:2:3:4:5:6:7:8', v6(1, 2, 3, 4, 5, 6, 7, 8)],
    ['1:2:3:4:5:6:7::', v6(1, 2, 3, 4, 5, 6, 7, 0)],
    ['::2:3:4:5:6:7:8', v6(0, 2, 3, 4, 5, 6, 7, 8)],
    ['1::8', v6(1, 0, 0, 0, 0, 0, 0, 8)],
    ['1:2:3:4:5:6:1.2.3.4', v6(1, 2, 3, 4, 5, 6, 0x0102, 0x0304)],
    ['64:ff9b::192.0.2.33', v6(0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221)],
    // The deprecated IPv4-compatible form is plain IPv6, not mapped.
    ['::1.2.3.4', v6(0, 0, 0, 0, 0, 0, 0x0102, 0x0304)],
    ['::ffff:0:1.2.3.4', v6(0, 0, 0, 0, 0xffff, 0, 0x0102, 0x0304)],
  ])('accepts %s', (text, expected) => {
    expect(bytesOf(text)).toEqual(expected);
  });

  it.each([
    ':',
    ':::',
    '::::',
    '1::2::3',
    '::1::',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '1:2:3:4::5:6:7:8',
    '12345::1',
    '1:2:3:4:5:6:7:00000',
    'g::1',
    ':1::2',
    '1::2:',
    '1:2:3:4:5:6:7:8:',
    ':1:2:3:4:5:6:7:8',
    ' ::1',
    '::1 ',
    ':: 1',
    'fe80::1%eth0',
    'fe80::1%1',
    '[::1]',
    '::1/128',
    '::ffff:1.2.3',
    '::ffff:1.2.3.4.5',
    '::ffff:01.2.3.4',
    '::ffff:256.2.3.4',
    '1.2.3.4::',
    '::1.2.3.4:1',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1:2:3:4:5:6:7:8:1.2.3.4',
    '::ffff:1.2.3.4:5',
    'ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255x',
  ])('refuses %j', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });

  it('refuses anything longer than the longest valid text before scanning it', () => {
    expect(parseIpAddress('0:'.repeat(4000) + '1')).toBeUndefined();
    expect(parseIpAddress('ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255')).toBeDefined();
  });
});

describe('IPv4-mapped IPv6', () => {
  it.each(['::ffff:10.1.2.3', '::FFFF:10.1.2.3', '::ffff:0a01:0203', '0:0:0:0:0:ffff:a01:203', '0::ffff:10.1.2.3'])(
    'reads %s as the IPv4 address',
    (text) => {
      expect(bytesOf(text)).toEqual([4, 10, 1, 2, 3]);
    },
  );

  it('keeps the written IPv6 form when asked to', () => {
    expect(parseIpAddressAsWritten('::ffff:10.1.2.3')?.version).toBe(6);
  });

  it('recognises only ::ffff:0:0/96 as mapped', () => {
    const mapped = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4);
    expect(isIpv4MappedBytes(mapped)).toBe(true);
    expect(isIpv4MappedBytes(Uint8Array.of(1, 2, 3, 4))).toBe(false);
    const notMapped = mapped.slice();
    notMapped[9] = 1;
    expect(isIpv4MappedBytes(notMapped)).toBe(false);
    expect(bytesOf('::fffe:10.1.2.3')?.[0]).toBe(6);
    expect(bytesOf('1::ffff:10.1.2.3')?.[0]).toBe(6);
  });
});
