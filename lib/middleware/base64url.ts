/**
 * Bytes as unpadded base64url (RFC 4648 §5), for tokens that travel in headers and cookies.
 *
 * @example
 * base64url(new Uint8Array([251, 255])); // '-_8'
 */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
