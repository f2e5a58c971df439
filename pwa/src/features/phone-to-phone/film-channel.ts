import { FILM_FRAME_BYTES, MAX_CONTROL_CHARS } from '@filamu/shared';
import type { z } from 'zod';

/**
 * One data channel between two phones, as the transfer uses it: JSON control messages, parsed against the other
 * side's schema with a length bound first (the other phone is not trusted), and film frames — a run number then up
 * to 64 KiB of the film — sent no faster than the link takes them, so a 300 MB film never sits in memory.
 */

/** Frames waiting in the channel's buffer above this, the sender waits: enough to keep the link busy. */
const HIGH_WATER = 4 * FILM_FRAME_BYTES;
const LOW_WATER = FILM_FRAME_BYTES;
const RUN_BYTES = 4;

export interface FilmFrame {
  run: number;
  bytes: Uint8Array<ArrayBuffer>;
}

export interface FilmChannelEvents<In> {
  message: (message: In) => void;
  frame: (frame: FilmFrame) => void;
  /** The other side sent something that is not the protocol: the session ends, it is not the person's doing. */
  invalid: () => void;
  closed: () => void;
}

export class FilmChannel<In, Out> {
  private closedAlready = false;

  constructor(
    private readonly channel: RTCDataChannel,
    schema: z.ZodType<In>,
    events: FilmChannelEvents<In>,
  ) {
    channel.binaryType = 'arraybuffer';
    channel.bufferedAmountLowThreshold = LOW_WATER;
    channel.onmessage = ({ data }: MessageEvent<unknown>) => {
      if (typeof data === 'string') {
        const parsed = data.length <= MAX_CONTROL_CHARS ? schema.safeParse(parseJson(data)) : null;
        if (parsed?.success) events.message(parsed.data);
        else events.invalid();
      } else if (data instanceof ArrayBuffer && data.byteLength > RUN_BYTES) {
        if (data.byteLength > RUN_BYTES + FILM_FRAME_BYTES) return events.invalid();
        const run = new DataView(data).getUint32(0, false);
        events.frame({ run, bytes: new Uint8Array(data, RUN_BYTES) });
      } else {
        events.invalid();
      }
    };
    const onClosed = () => {
      if (this.closedAlready) return;
      this.closedAlready = true;
      events.closed();
    };
    channel.onclose = onClosed;
    channel.onerror = onClosed;
  }

  get open(): boolean {
    return this.channel.readyState === 'open';
  }

  send(message: Out): void {
    if (this.open) this.channel.send(JSON.stringify(message));
  }

  /** Sends one frame of run `run`, waiting first while the channel's buffer is full; false once the channel closed. */
  async sendFrame(run: number, bytes: Uint8Array): Promise<boolean> {
    while (this.open && this.channel.bufferedAmount > HIGH_WATER) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.channel.removeEventListener('bufferedamountlow', done);
          this.channel.removeEventListener('close', done);
          resolve();
        };
        this.channel.addEventListener('bufferedamountlow', done);
        this.channel.addEventListener('close', done);
      });
    }
    if (!this.open) return false;
    const frame = new Uint8Array(RUN_BYTES + bytes.byteLength);
    new DataView(frame.buffer).setUint32(0, run, false);
    frame.set(bytes, RUN_BYTES);
    this.channel.send(frame);
    return true;
  }

  close(): void {
    this.channel.close();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
