/**
 * A WebRTC connection between two phones on the same hotspot, with no server at all (decision 0243): no STUN, no
 * TURN, no signalling — each side's description, with every candidate it will ever have, goes to the other phone as
 * a QR code. So ICE gathering must finish before a description is shown: there is no later trickle.
 */

/** Host candidates on a hotspot come within milliseconds; this bounds a phone that never says gathering is done. */
const GATHER_TIMEOUT_MS = 3_000;
/** From the answer being read to the channel opening: ICE checks and DTLS on a local link take well under this. */
const CONNECT_TIMEOUT_MS = 20_000;
/** The receiver's answer waits for the sender to scan it: a person finding the right screen, not a machine. */
const ANSWER_WAIT_MS = 5 * 60_000;

export interface Description {
  type: 'offer' | 'answer';
  sdp: string;
}

function newConnection(): RTCPeerConnection {
  return new RTCPeerConnection({ iceServers: [] });
}

function gathered(connection: RTCPeerConnection): Promise<void> {
  if (connection.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_TIMEOUT_MS);
    function done() {
      clearTimeout(timer);
      connection.removeEventListener('icegatheringstatechange', check);
      resolve();
    }
    function check() {
      if (connection.iceGatheringState === 'complete') done();
    }
    connection.addEventListener('icegatheringstatechange', check);
  });
}

async function localDescription(connection: RTCPeerConnection): Promise<Description> {
  await gathered(connection);
  const description = connection.localDescription;
  if (!description || (description.type !== 'offer' && description.type !== 'answer')) {
    throw new Error('The connection has no description to share.');
  }
  return { type: description.type, sdp: description.sdp };
}

/** Resolves with the channel once it is open; rejects when the connection fails or takes too long. */
function opened(
  connection: RTCPeerConnection,
  channel: Promise<RTCDataChannel>,
  timeoutMs: number,
): Promise<RTCDataChannel> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    connection.addEventListener('connectionstatechange', () => {
      if (connection.connectionState === 'failed') reject(new Error('failed'));
    });
    void channel.then((open) => {
      const ready = () => {
        clearTimeout(timer);
        resolve(open);
      };
      if (open.readyState === 'open') ready();
      else open.addEventListener('open', ready, { once: true });
    });
  });
}

/** The sending phone: its offer to show, then, given the receiver's answer, the open channel. */
export async function offerConnection(): Promise<{
  connection: RTCPeerConnection;
  offer: Description;
  connect: (answer: Description) => Promise<RTCDataChannel>;
}> {
  const connection = newConnection();
  const channel = connection.createDataChannel('films', { ordered: true });
  await connection.setLocalDescription();
  const offer = await localDescription(connection);
  return {
    connection,
    offer,
    connect: async (answer) => {
      await connection.setRemoteDescription(answer);
      return opened(connection, Promise.resolve(channel), CONNECT_TIMEOUT_MS);
    },
  };
}

/** The receiving phone: given the sender's offer, its answer to show and the channel, open once the sender read it. */
export async function answerConnection(offer: Description): Promise<{
  connection: RTCPeerConnection;
  answer: Description;
  channel: Promise<RTCDataChannel>;
}> {
  const connection = newConnection();
  const channel = new Promise<RTCDataChannel>((resolve) =>
    connection.addEventListener('datachannel', ({ channel: incoming }) => resolve(incoming), { once: true }),
  );
  await connection.setRemoteDescription(offer);
  await connection.setLocalDescription();
  const answer = await localDescription(connection);
  return { connection, answer, channel: opened(connection, channel, ANSWER_WAIT_MS) };
}

/** How long a link may stay "disconnected" (no answer to ICE's checks) before the transfer calls it lost. */
const DISCONNECTED_GRACE_MS = 8_000;

/**
 * Calls `onLost` once when the link to the other phone is gone: failed or closed, or disconnected for longer than a
 * hotspot's hiccup. A phone that walks away or whose Filamu is closed sends no goodbye — only ICE notices, after
 * a few seconds — so the data channel alone would wait the half minute until ICE gives up.
 */
export function watchLink(connection: RTCPeerConnection, onLost: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lost = false;
  const lose = () => {
    if (lost) return;
    lost = true;
    stop();
    onLost();
  };
  const check = () => {
    const state = connection.connectionState;
    if (state === 'failed' || state === 'closed') return lose();
    if (state === 'disconnected') timer ??= setTimeout(lose, DISCONNECTED_GRACE_MS);
    else {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  function stop() {
    clearTimeout(timer);
    connection.removeEventListener('connectionstatechange', check);
  }
  connection.addEventListener('connectionstatechange', check);
  return stop;
}
