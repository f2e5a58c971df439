import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeSignal,
  encodeSignal,
  groupForTyping,
  type SignalDescription,
} from '../pwa/src/features/phone-to-phone/signalling/signal-code.ts';
import { noRouteOffer } from '../pwa/src/features/phone-to-phone/signalling/chromium-descriptions.testing.ts';
import { qrModules } from '../pwa/src/features/phone-to-phone/signalling/qr-modules.ts';
import { baseURL, CHROMIUM_ARGS, CHROMIUM_PATH, newUser, register } from './support/browser.ts';

/**
 * Two phones on one hotspot connect by codes alone (decision 0243): each side's description, once ICE gathering is
 * done, goes through `encodeSignal` and `decodeSignal` — the QR code's text, the only thing that crosses between the
 * phones — and Chromium must accept what comes out, open the data channel, and carry a message each way.
 *
 * Chromium runs in a network namespace of its own, whose one link (a veth pair whose far end is in a second, empty
 * namespace) stands for the hotspot's Wi-Fi: the phones' real addresses and the mDNS that hides them stay on this
 * machine, and the addresses are the ones a test can name. So the pages cannot reach the suite's server; each phone's
 * page is a blank one served by Playwright at http://localhost/, a secure origin where camera permission means what it
 * does on a phone.
 */

const HOTSPOT_IPV4 = '198.51.100.7';
const HOTSPOT_IPV6 = 'fd68:6f74:7370::7';
const MDNS_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.local$/;
const PAGE_ORIGIN = 'http://localhost';

const folder = mkdtempSync(join(tmpdir(), 'filamu-hotspot-'));
const browsers: Browser[] = [];

afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()));
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Chromium inside a fresh network namespace with the hotspot link. `defaultRoute` is whether the phone has a way
 * out: without one, Chromium hides even the hotspot address unless the page may use the camera (see below).
 */
async function hotspotBrowser({ defaultRoute }: { defaultRoute: boolean }): Promise<Browser> {
  const launcher = join(folder, `chromium-${defaultRoute ? 'routed' : 'unrouted'}.sh`);
  const route = defaultRoute
    ? `ip route add default via 198.51.100.1 dev hotspot0\nip -6 route add default via fd68:6f74:7370::1 dev hotspot0`
    : '';
  writeFileSync(
    launcher,
    `#!/bin/sh
exec unshare --net sh -c '
set -e
ip link set lo up
unshare --net sleep 900 &
far=$!
sleep 0.2
ip link add hotspot0 type veth peer name hotspot1
ip link set hotspot1 netns $far
nsenter -t $far -n ip link set hotspot1 up
ip addr add ${HOTSPOT_IPV4}/24 dev hotspot0
ip -6 addr add ${HOTSPOT_IPV6}/64 dev hotspot0 nodad
ip link set hotspot0 up
ip route add 224.0.0.0/4 dev hotspot0
${route}
set +e
${CHROMIUM_PATH} "$@"
kill $far' chromium "$@"
`,
  );
  chmodSync(launcher, 0o755);
  const browser = await chromium.launch({ executablePath: launcher, args: CHROMIUM_ARGS });
  browsers.push(browser);
  return browser;
}

/** One phone: a browser profile of its own, on a blank secure page, allowed the camera or not. */
async function phone(browser: Browser, { camera }: { camera: boolean }): Promise<Page> {
  const context = await browser.newContext();
  if (camera) await context.grantPermissions(['camera'], { origin: PAGE_ORIGIN });
  await context.route(`${PAGE_ORIGIN}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Phone</title>' }),
  );
  const page = await context.newPage();
  await page.goto(`${PAGE_ORIGIN}/`);
  return page;
}

/**
 * Starts this page's side — an offer with one data channel, or the answer to `remote` — and gives its description once
 * ICE gathering is done, as the app shows it: there is no trickle after the QR code.
 */
function describeSide(page: Page, remote?: SignalDescription): Promise<SignalDescription> {
  return page.evaluate(async (remote) => {
    const connection = new RTCPeerConnection({ iceServers: [] });
    const received: string[] = [];
    const channel = new Promise<RTCDataChannel>((resolve) => {
      if (!remote) resolve(connection.createDataChannel('films', { ordered: true }));
      else connection.addEventListener('datachannel', ({ channel }) => resolve(channel));
    });
    const opened = channel.then(
      (open) =>
        new Promise<RTCDataChannel>((resolve) => {
          open.addEventListener('message', ({ data }) => received.push(String(data)));
          if (open.readyState === 'open') resolve(open);
          else open.addEventListener('open', () => resolve(open));
        }),
    );
    Object.assign(window, { connection, opened, received });
    if (remote) await connection.setRemoteDescription(remote);
    await connection.setLocalDescription();
    await new Promise<void>((resolve) => {
      if (connection.iceGatheringState === 'complete') resolve();
      connection.addEventListener('icegatheringstatechange', () => {
        if (connection.iceGatheringState === 'complete') resolve();
      });
    });
    const local = connection.localDescription!;
    return { type: local.type as 'offer' | 'answer', sdp: local.sdp };
  }, remote);
}

function acceptAnswer(page: Page, answer: SignalDescription): Promise<void> {
  return page.evaluate(async (answer) => {
    const { connection } = window as unknown as { connection: RTCPeerConnection };
    await connection.setRemoteDescription(answer);
  }, answer);
}

/** Waits for this page's channel to open, sends `text`, and gives what it received from the other side. */
function talk(page: Page, text: string): Promise<string> {
  return page.evaluate(async (text) => {
    const { opened, received } = window as unknown as { opened: Promise<RTCDataChannel>; received: string[] };
    const channel = await Promise.race([opened, new Promise<null>((resolve) => setTimeout(resolve, 15_000, null))]);
    if (!channel) return 'the channel never opened';
    channel.send(text);
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return received[0] ?? 'nothing';
  }, text);
}

/** What the other phone gets from a description: its code, read back as a person's phone would. */
function throughCode(description: SignalDescription): { code: string; description: SignalDescription } {
  const code = encodeSignal(description);
  const reading = decodeSignal(code, description.type);
  if (!reading.ok) throw new Error(`the code was refused: ${reading.problem.message}`);
  return { code, description: reading.description };
}

function hostAddresses(description: SignalDescription): string[] {
  return description.sdp
    .split('\r\n')
    .filter((line) => line.startsWith('a=candidate:') && line.split(' ')[2] === 'udp')
    .map((line) => line.split(' ')[4]!);
}

/** The sender offers, the receiver answers, each through its code; then a message goes each way. */
async function connectByCodes(sender: Page, receiver: Page) {
  const offer = await describeSide(sender);
  const offerRead = throughCode(offer);
  const answer = await describeSide(receiver, offerRead.description);
  const answerRead = throughCode(answer);
  await acceptAnswer(sender, answerRead.description);
  const [atSender, atReceiver] = await Promise.all([
    talk(sender, 'Films are coming'),
    talk(receiver, 'Ready for them'),
  ]);
  return { offer, answer, offerCode: offerRead.code, answerCode: answerRead.code, atSender, atReceiver };
}

describe('two phones on a hotspot, connected by codes alone', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await hotspotBrowser({ defaultRoute: true });
  });

  it('connect with their real addresses when both may use the camera', async () => {
    const result = await connectByCodes(await phone(browser, { camera: true }), await phone(browser, { camera: true }));
    expect(hostAddresses(result.offer)).toEqual([HOTSPOT_IPV4, HOTSPOT_IPV6]);
    expect(hostAddresses(result.answer)).toEqual([HOTSPOT_IPV4, HOTSPOT_IPV6]);
    expect(result.offerCode.length).toBeLessThanOrEqual(137);
    expect(result.atReceiver).toBe('Films are coming');
    expect(result.atSender).toBe('Ready for them');
  });

  it('connect through mDNS names when neither may use the camera', async () => {
    const result = await connectByCodes(
      await phone(browser, { camera: false }),
      await phone(browser, { camera: false }),
    );
    expect(hostAddresses(result.offer).length).toBeGreaterThan(0);
    expect(hostAddresses(result.offer).every((name) => MDNS_NAME.test(name))).toBe(true);
    expect(hostAddresses(result.answer).every((name) => MDNS_NAME.test(name))).toBe(true);
    expect(result.atReceiver).toBe('Films are coming');
    expect(result.atSender).toBe('Ready for them');
  });

  it('connect when only the receiver, which has just scanned, shows its real address', async () => {
    const result = await connectByCodes(
      await phone(browser, { camera: false }),
      await phone(browser, { camera: true }),
    );
    expect(hostAddresses(result.offer).every((name) => MDNS_NAME.test(name))).toBe(true);
    expect(hostAddresses(result.answer)).toEqual([HOTSPOT_IPV4, HOTSPOT_IPV6]);
    expect(result.atReceiver).toBe('Films are coming');
    expect(result.atSender).toBe('Ready for them');
  });
});

describe('a phone whose hotspot is its only network (no mobile data, no default route)', () => {
  it('offers no address at all until the page may use the camera', async () => {
    const browser = await hotspotBrowser({ defaultRoute: false });
    const hidden = await describeSide(await phone(browser, { camera: false }));
    expect(hostAddresses(hidden)).toEqual([]);
    const allowed = await describeSide(await phone(browser, { camera: true }));
    expect(hostAddresses(allowed)).toEqual([HOTSPOT_IPV4, HOTSPOT_IPV6]);
  });
});

/**
 * A camera's view of `code`'s QR code on another phone's screen, as a Y4M video Chromium's fake camera plays: the code
 * in the middle of a grey frame, its modules about 9 pixels wide, dark and light not quite black and white.
 */
function cameraViewOf(code: string): Buffer {
  const [width, height] = [640, 480];
  const modules = qrModules(code);
  const side = modules.length + 8;
  const pixels = Math.floor(400 / side);
  const [left, top] = [Math.floor((width - side * pixels) / 2), Math.floor((height - side * pixels) / 2)];
  const luma = Buffer.alloc(width * height, 90);
  for (let y = 0; y < side * pixels; y += 1) {
    for (let x = 0; x < side * pixels; x += 1) {
      const dark = modules[Math.floor(y / pixels) - 4]?.[Math.floor(x / pixels) - 4] ?? false;
      luma[(top + y) * width + left + x] = dark ? 30 : 225;
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, Buffer.alloc(width * height * 0.5, 128)]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]);
}

/**
 * The receiving phone's screen with the scanner, against the suite's server (so outside the namespace: the offer
 * has no candidate, so the answering page never sends a packet, and mDNS is off so it announces no name). Chromium
 * on Linux has no BarcodeDetector, so this reads the camera with the decoder the scanner falls back on.
 */
describe('the receiving phone reads the sending phone’s code', () => {
  const offerCode = encodeSignal(noRouteOffer);
  let browser: Browser;
  beforeAll(async () => {
    const video = join(folder, 'offer-on-screen.y4m');
    writeFileSync(video, cameraViewOf(offerCode));
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
        '--disable-features=WebRtcHideLocalIpsWithMdns',
      ],
    });
    browsers.push(browser);
  });

  async function receivingPhone(camera: boolean): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 780 } });
    if (camera) await context.grantPermissions(['camera']);
    const page = await context.newPage();
    await register(page, newUser());
    await page.waitForURL(/\/(dashboard|subscription)$/);
    await page.goto('/downloads/receive');
    await page.getByRole('button', { name: 'Scan the sender’s code' }).click();
    return page;
  }

  it('with the camera, and shows its answer with the camera off', async () => {
    const page = await receivingPhone(true);
    await page.getByRole('img', { name: /code for the other phone to scan/i }).waitFor();
    await expect.poll(() => page.getByLabel('Camera preview').count()).toBe(0);
  });

  it('typed, when the camera is refused, after saying what was wrong with a mistyped one', async () => {
    const page = await receivingPhone(false);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Filamu may not use the camera.');
    const field = page.getByRole('textbox', { name: 'Code from the other phone' });
    const grouped = groupForTyping(offerCode);
    await field.fill(grouped.slice(0, 20) + (grouped[20] === 'A' ? 'B' : 'A') + grouped.slice(21));
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await field.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
      "This code has a mistake in it. Check it against the other phone's screen.",
    );
    await field.fill(grouped.toLowerCase());
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('img', { name: /code for the other phone to scan/i }).waitFor();
  });
});
