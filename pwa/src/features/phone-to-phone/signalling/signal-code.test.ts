import { describe, expect, it } from 'vitest';
import {
  fiveNetworksOffer,
  hotspotAnswer,
  hotspotOffer,
  mdnsAnswer,
  mdnsOffer,
  noRouteOffer,
} from './chromium-descriptions.testing.ts';
import { bytesToCode } from './code-text.ts';
import { decodeSignal, encodeSignal, groupForTyping, MAX_TYPED_LENGTH, type SignalDescription } from './signal-code.ts';

/** Signal codes (decision 0243) from descriptions real Chromium made; that Chromium takes them back is e2e's job. */

const CODE_ALPHABET = /^[A-Z2-7]+$/;

function lines(sdp: string, prefix: string): string[] {
  return sdp.split('\r\n').filter((line) => line.startsWith(prefix));
}

/** `address port` of every UDP host candidate, in the order written. */
function udpHosts(sdp: string): string[] {
  return lines(sdp, 'a=candidate:')
    .map((line) => line.split(' '))
    .filter((fields) => fields[2]?.toLowerCase() === 'udp' && fields[7] === 'host')
    .map((fields) => `${fields[4]} ${fields[5]}`);
}

function decoded(text: string, expected?: 'offer' | 'answer'): SignalDescription {
  const reading = decodeSignal(text, expected);
  if (!reading.ok) throw new Error(`refused: ${reading.problem.message}`);
  return reading.description;
}

describe('a real description round trip', () => {
  it.each([
    ['hotspot offer', hotspotOffer],
    ['hotspot answer', hotspotAnswer],
    ['mDNS offer', mdnsOffer],
    ['mDNS answer', mdnsAnswer],
  ])('%s keeps what the other phone needs', (_name, description) => {
    const code = encodeSignal(description);
    expect(code).toMatch(CODE_ALPHABET);
    const rebuilt = decoded(code);
    expect(rebuilt.type).toBe(description.type);
    for (const attribute of ['a=ice-ufrag:', 'a=ice-pwd:', 'a=fingerprint:', 'a=setup:']) {
      expect(lines(rebuilt.sdp, attribute)).toEqual(lines(description.sdp, attribute));
    }
    expect(lines(rebuilt.sdp, 'a=end-of-candidates')).toHaveLength(1);
    expect(rebuilt.sdp).not.toMatch(/ tcp /i);
  });

  it('gives the IPv4 candidate as written and the IPv6 one as the same address', () => {
    expect(udpHosts(decoded(encodeSignal(hotspotOffer)).sdp)).toEqual([
      `198.51.100.7 ${udpHosts(hotspotOffer.sdp)[0]!.split(' ')[1]}`,
      `fd68:6f74:7370:0:0:0:0:7 ${udpHosts(hotspotOffer.sdp)[1]!.split(' ')[1]}`,
    ]);
  });

  it('gives mDNS names back exactly, so the other phone can resolve them', () => {
    const names = udpHosts(mdnsOffer.sdp);
    expect(names).toHaveLength(2);
    expect(names.every((name) => /^[0-9a-f-]{36}\.local \d+$/.test(name))).toBe(true);
    expect(udpHosts(decoded(encodeSignal(mdnsOffer)).sdp)).toEqual(names);
  });

  it('carries an offer with no candidate, which the answering phone can still reach by its own', () => {
    expect(udpHosts(noRouteOffer.sdp)).toEqual([]);
    const rebuilt = decoded(encodeSignal(noRouteOffer));
    expect(udpHosts(rebuilt.sdp)).toEqual([]);
    expect(lines(rebuilt.sdp, 'a=ice-pwd:')).toEqual(lines(noRouteOffer.sdp, 'a=ice-pwd:'));
  });

  it('keeps eight candidates of a phone on five networks, its IPv4 ones first', () => {
    const kept = udpHosts(decoded(encodeSignal(fiveNetworksOffer)).sdp).map((host) => host.split(' ')[0]!);
    expect(udpHosts(fiveNetworksOffer.sdp)).toHaveLength(10);
    expect(kept).toHaveLength(8);
    expect(kept.slice(0, 5).every((address) => /^\d+\.\d+\.\d+\.\d+$/.test(address))).toBe(true);
    expect(kept.slice(5).every((address) => address.includes(':'))).toBe(true);
  });

  it('ranks the candidates in the order kept, highest first', () => {
    const priorities = lines(decoded(encodeSignal(fiveNetworksOffer)).sdp, 'a=candidate:').map((line) =>
      Number(line.split(' ')[3]),
    );
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(new Set(priorities).size).toBe(priorities.length);
  });
});

describe('the size of a code', () => {
  const bytes = (code: string) => Math.floor((code.length * 5) / 8);

  it('is about 85 bytes for a hotspot offer with an IPv4 and an IPv6 candidate', () => {
    const code = encodeSignal(hotspotOffer);
    expect(bytes(code)).toBe(4 + 21 + 32 + 7 + 19 + 2);
    expect(code.length).toBeLessThanOrEqual(137);
  });

  it('is under 120 bytes with two mDNS names', () => {
    expect(bytes(encodeSignal(mdnsOffer))).toBeLessThanOrEqual(97);
    expect(bytes(encodeSignal(mdnsAnswer))).toBeLessThanOrEqual(97);
  });
});

describe('a code typed by hand', () => {
  const code = encodeSignal(hotspotAnswer);

  it('is shown in groups of four', () => {
    const grouped = groupForTyping(code);
    expect(
      grouped
        .split(' ')
        .slice(0, -1)
        .every((group) => group.length === 4),
    ).toBe(true);
    expect(grouped.split(' ').join('')).toBe(code);
  });

  it('may be typed in lower case, with dashes, spaces and line breaks', () => {
    const typed = groupForTyping(code).toLowerCase().replaceAll(' ', '-').replace('-', '\n ');
    expect(decoded(typed)).toEqual(decoded(code));
  });

  it('may have 0 for O and 1 for I, which a code never shows', () => {
    const withOAndI = encodeSignal(mdnsOffer);
    const typed = withOAndI.replaceAll('O', '0').replaceAll('I', '1');
    expect(decoded(typed)).toEqual(decoded(withOAndI));
  });

  it('is refused with a reason when any one character is wrong', () => {
    for (let at = 0; at < code.length; at += 1) {
      const wrong = code[at] === 'A' ? 'B' : 'A';
      const reading = decodeSignal(code.slice(0, at) + wrong + code.slice(at + 1));
      expect(reading.ok, `a wrong character at ${at}`).toBe(false);
      if (!reading.ok) expect(reading.problem.message).toMatch(/Check it against the other phone's screen\.$/);
    }
  });

  it('says "not complete" when the end is missing', () => {
    expect(decodeSignal(code.slice(0, -6))).toEqual({
      ok: false,
      problem: {
        kind: 'incomplete',
        message: "This code is not complete. Check it against the other phone's screen.",
      },
    });
  });

  it('is refused when a character was left out in the middle or typed twice', () => {
    const middle = Math.floor(code.length / 2);
    expect(decodeSignal(code.slice(0, middle) + code.slice(middle + 1)).ok).toBe(false);
    expect(decodeSignal(code.slice(0, middle) + code[middle] + code.slice(middle)).ok).toBe(false);
  });

  it('names a character that is not in codes', () => {
    const reading = decodeSignal(`${code.slice(0, 10)}8${code.slice(10)}`);
    expect(reading).toEqual({
      ok: false,
      problem: {
        kind: 'not-a-code',
        message: '“8” is not in Filamu codes, which have only the letters A to Z and the digits 2 to 7.',
      },
    });
  });

  it('refuses another app’s QR code, a link', () => {
    const reading = decodeSignal('https://example.com/x');
    expect(reading.ok || reading.problem.kind).toBe('not-a-code');
  });

  it('asks for the code when nothing was typed', () => {
    const reading = decodeSignal('  - ');
    expect(reading.ok || reading.problem).toEqual({
      kind: 'empty',
      message: 'Type the code shown on the other phone.',
    });
  });

  it('refuses a text longer than any code before reading it', () => {
    const reading = decodeSignal('A'.repeat(MAX_TYPED_LENGTH + 1));
    expect(reading.ok || reading.problem.kind).toBe('too-long');
    const longestGrouped = decodeSignal(groupForTyping('A'.repeat(420)));
    expect(longestGrouped.ok || longestGrouped.problem.kind).toBe('mistyped');
  });
});

describe('a code of another kind', () => {
  it('from a newer Filamu asks for an update', () => {
    const newer = Uint8Array.from([2, ...new Uint8Array(90)]);
    const reading = decodeSignal(bytesToCode(newer));
    expect(reading.ok || reading.problem).toEqual({
      kind: 'newer-version',
      message: 'This code comes from a newer Filamu. Update Filamu on both phones, then try again.',
    });
  });

  it('read off the wrong phone says which phone to scan', () => {
    const onReceiver = decodeSignal(encodeSignal(hotspotAnswer), 'offer');
    expect(onReceiver.ok || onReceiver.problem.message).toBe(
      'This is the code of a phone that receives. Scan the code on the phone that sends the film.',
    );
    const onSender = decodeSignal(encodeSignal(hotspotOffer), 'answer');
    expect(onSender.ok || onSender.problem.message).toBe(
      'This is the code of a phone that sends. Scan the code on the phone that receives the film.',
    );
    expect(decodeSignal(encodeSignal(hotspotOffer), 'offer').ok).toBe(true);
  });
});

describe('a description that is not one data channel', () => {
  it('is a fault in the app, not a code', () => {
    const withVideo = { type: 'offer' as const, sdp: `${hotspotOffer.sdp}m=video 9 UDP/TLS/RTP/SAVPF 96\r\n` };
    expect(() => encodeSignal(withVideo)).toThrow('Only a data channel can be shared as a code.');
    const sha1 = { type: 'offer' as const, sdp: hotspotOffer.sdp.replace('sha-256', 'sha-1') };
    expect(() => encodeSignal(sha1)).toThrow('The description has no SHA-256 certificate fingerprint.');
  });
});
