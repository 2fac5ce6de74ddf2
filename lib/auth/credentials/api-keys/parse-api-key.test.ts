import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, API_KEY_PREFIX } from './api-key-format.js';
import { generateApiKey } from './generate-api-key.js';
import { hashApiKeySecret } from './hash-api-key-secret.js';
import { parseApiKey } from './parse-api-key.js';

const ID = '0123456789abcdef01234567';
const SECRET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ'.slice(0, 42) + 'A';
const VALID = `${API_KEY_PREFIX}_${ID}_${SECRET}`;

describe('generateApiKey', () => {
  it('produces the documented format and round-trips through parseApiKey', () => {
    for (let i = 0; i < 200; i++) {
      const generated = generateApiKey();
      expect(generated.key).toHaveLength(API_KEY_LENGTH);
      expect(generated.id).toMatch(/^[0-9a-f]{24}$/);
      const parsed = parseApiKey(generated.key);
      expect(parsed).toBeDefined();
      expect(parsed?.prefix).toBe(API_KEY_PREFIX);
      expect(parsed?.id).toBe(generated.id);
      expect(parsed?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(generated.key).toBe(`${API_KEY_PREFIX}_${generated.id}_${parsed?.secret ?? ''}`);
      expect(generated.secretHash).toBe(hashApiKeySecret(parsed?.secret ?? ''));
    }
  });

  it('never repeats ids or secrets', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey().key));
    expect(keys.size).toBe(500);
  });
});

describe('hashApiKeySecret', () => {
  it('is plain lowercase hex SHA-256 of the UTF-8 secret', () => {
    expect(hashApiKeySecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKeySecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('parseApiKey', () => {
  it('accepts a key in exactly the format', () => {
    expect(parseApiKey(VALID)).toEqual({ prefix: 'tsk', id: ID, secret: SECRET });
  });

  it('accepts secrets containing `_` and `-`, including next to the separator', () => {
    const secrets = ['_'.repeat(42) + 'A', '-'.repeat(42) + 'w', '_-_-abc' + 'x'.repeat(35) + '0', 'a_b-c'.repeat(8) + 'ab8'];
    for (const secret of secrets) {
      expect(secret).toHaveLength(43);
      expect(parseApiKey(`tsk_${ID}_${secret}`)).toEqual({ prefix: 'tsk', id: ID, secret });
    }
  });

  it('accepts exactly the 16 canonical final characters', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const accepted = [...alphabet].filter((c) => parseApiKey(`tsk_${ID}_${SECRET.slice(0, 42)}${c}`) !== undefined);
    expect(accepted.join('')).toBe('AEIMQUYcgkosw048');
  });

  const malformed: Record<string, string> = {
    empty: '',
    'wrong prefix': `tsx_${ID}_${SECRET}`,
    'uppercase prefix': `TSK_${ID}_${SECRET}`,
    'no prefix': `${ID}_${SECRET}`,
    '23 hex id': `tsk_${ID.slice(1)}_${SECRET}`,
    '25 hex id': `tsk_${ID}0_${SECRET}`,
    '23 hex id padded into the secret': `tsk_${ID.slice(1)}_A${SECRET}`,
    'uppercase hex id': `tsk_${ID.toUpperCase()}_${SECRET}`,
    'non-hex id': `tsk_${ID.slice(0, 23)}g_${SECRET}`,
    '42 secret chars': `tsk_${ID}_${SECRET.slice(1)}`,
    '44 secret chars': `tsk_${ID}_A${SECRET}`,
    'bad final char': `tsk_${ID}_${SECRET.slice(0, 42)}B`,
    'padding': `tsk_${ID}_${SECRET.slice(0, 42)}=`,
    'standard base64 +': `tsk_${ID}_+${SECRET.slice(1)}`,
    'standard base64 /': `tsk_${ID}_/${SECRET.slice(1)}`,
    'leading space': ` ${VALID}`,
    'trailing space': `${VALID} `,
    'trailing newline': `${VALID}\n`,
    'inner space': `tsk_${ID}_ ${SECRET.slice(1)}`,
    'tab in id': `tsk_${ID.slice(0, 23)}\t_${SECRET}`,
    'double underscore after prefix': `tsk__${ID.slice(1)}_${SECRET}`,
    'underscore inside the id': `tsk_${ID.slice(0, 12)}_${ID.slice(13)}_${SECRET}`,
    'missing separator before secret': `tsk_${ID}${SECRET}A`,
    'dash instead of separator': `tsk-${ID}_${SECRET}`,
    'dash as second separator': `tsk_${ID}-${SECRET}`,
    'separators only': `tsk_${'_'.repeat(24)}_${SECRET}`,
    'non-ASCII in secret': `tsk_${ID}_é${SECRET.slice(1)}`,
    'bearer prefix': `Bearer ${VALID}`.slice(0, API_KEY_LENGTH),
  };
  for (const [name, text] of Object.entries(malformed)) {
    it(`rejects: ${name}`, () => {
      expect(parseApiKey(text)).toBeUndefined();
    });
  }

  it('rejects a very long string cheaply (length is checked first)', () => {
    expect(parseApiKey(VALID.repeat(10_000))).toBeUndefined();
  });
});
