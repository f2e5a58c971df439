import { smallMovie } from './downloads.ts';

/** A playable clip made `bytes` long by a trailing `free` box, which players skip: a film with many chunks. */
export function paddedMovie(title: string, bytes: number): Buffer {
  const clip = smallMovie(title);
  const pad = Buffer.alloc(bytes - clip.length);
  pad.writeUInt32BE(pad.length, 0);
  pad.write('free', 4, 'latin1');
  for (let i = 8; i < pad.length; i += 4096) pad[i] = (i >> 12) & 0xff;
  return Buffer.concat([clip, pad]);
}
