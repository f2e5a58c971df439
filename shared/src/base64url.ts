/** Unpadded base64url (RFC 4648 §5), the form keys and licences travel in, for the browser (Node has Buffer). */
export function toBase64url(bytes: ArrayBuffer | Uint8Array): string {
  let binary = '';
  for (const byte of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  const padded = btoa(binary).replaceAll('+', '-').replaceAll('/', '_');
  let end = padded.length;
  while (end > 0 && padded[end - 1] === '=') end--;
  return padded.slice(0, end);
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
