/**
 * Session descriptions captured from Chromium 156 (the e2e suite's /usr/bin/chromium), two pages of one browser
 * connected with one data channel and no ICE server, the browser in a network namespace whose only link stands for
 * the hotspot (198.51.100.7, fd68:6f74:7370::7). Each connected, except the one with no candidate.
 */

/** The sender with camera permission: its real IPv4 and IPv6 on the hotspot, UDP and TCP. */
export const hotspotOffer = {
  type: 'offer',
  sdp: [
    'v=0',
    'o=- 6818331403248968873 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 36319 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 198.51.100.7',
    'a=candidate:2984364701 1 udp 2122194687 198.51.100.7 36319 typ host generation 0 network-id 1',
    'a=candidate:3383412548 1 udp 2122265343 fd68:6f74:7370::7 41640 typ host generation 0 network-id 2',
    'a=candidate:1330322953 1 tcp 1518214911 198.51.100.7 9 typ host tcptype active generation 0 network-id 1',
    'a=candidate:922751952 1 tcp 1518285567 fd68:6f74:7370::7 9 typ host tcptype active generation 0 network-id 2',
    'a=ice-ufrag:x4Ap',
    'a=ice-pwd:vUBRNGqaQn8a586+1+fQGhmt',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 29:18:3C:25:E0:88:E3:36:AE:90:23:21:88:BA:E4:8D:61:5A:2E:DC:CF:2B:F7:88:16:9E:4E:B4:EE:64:49:43',
    'a=setup:actpass',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;

/** The receiver's answer to it, also with camera permission. */
export const hotspotAnswer = {
  type: 'answer',
  sdp: [
    'v=0',
    'o=- 5454356365281501158 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 54495 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 198.51.100.7',
    'a=candidate:3949577534 1 udp 2122194687 198.51.100.7 54495 typ host generation 0 network-id 1',
    'a=candidate:2813181558 1 udp 2122265343 fd68:6f74:7370::7 58552 typ host generation 0 network-id 2',
    'a=ice-ufrag:cjfW',
    'a=ice-pwd:8zZvqgqYIlAMHIlWcPHd/pUV',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 35:B8:F5:57:2A:DA:36:9C:FF:40:65:3F:D2:D8:9A:9D:FD:69:0C:50:FD:15:78:42:26:AE:52:F0:7C:C7:36:F7',
    'a=setup:active',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;

/** The sender without camera permission: Chromium hides its addresses behind mDNS names, UDP only. */
export const mdnsOffer = {
  type: 'offer',
  sdp: [
    'v=0',
    'o=- 2978390039543488095 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    'a=candidate:470499175 1 udp 2113937151 e33ac14b-bbe6-42c5-a5d3-0b05326660d8.local 59073 typ host generation 0 network-cost 999',
    'a=candidate:1681928894 1 udp 2113942271 f3857fa8-e8a0-40db-b050-c5591dcf0956.local 51623 typ host generation 0 network-cost 999',
    'a=ice-ufrag:Poe5',
    'a=ice-pwd:QTEDj4Ny4W9jKoHUF8u3iN9Z',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 41:23:3A:C3:53:2E:4E:5D:E5:9C:EE:04:51:AB:58:63:FC:7E:A1:6C:B7:61:A0:97:05:7F:CE:48:2B:BC:C4:3F',
    'a=setup:actpass',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;

/** The receiver's answer to it, also without camera permission. */
export const mdnsAnswer = {
  type: 'answer',
  sdp: [
    'v=0',
    'o=- 2449908927956733605 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    'a=candidate:1644718151 1 udp 2113937151 6e3d3f4e-1a9a-4572-bf61-0d6cf1656c56.local 40693 typ host generation 0 network-cost 999',
    'a=candidate:440624542 1 udp 2113942271 3ee8df96-de7e-46ff-9166-3192b0657e96.local 34503 typ host generation 0 network-cost 999',
    'a=ice-ufrag:QOEs',
    'a=ice-pwd:9RE8h/CjSp3K5+sJCfWGA9yp',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 DF:30:CF:D4:90:98:C4:E5:46:B7:16:63:A7:E7:3F:A3:84:74:74:5E:28:71:F4:73:D3:71:8D:28:9C:F5:8F:C1',
    'a=setup:active',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;

/** The sender without camera permission on a network with no default route: Chromium gathers no candidate at all. */
export const noRouteOffer = {
  type: 'offer',
  sdp: [
    'v=0',
    'o=- 3957917438755070866 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    'a=ice-ufrag:aBJz',
    'a=ice-pwd:lIeod8LeVDQ7bMQY8DiwWoWd',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 31:E5:18:BD:1F:31:F2:16:28:97:FC:6F:DC:12:12:E2:5E:C4:77:49:E7:ED:7D:C5:97:51:BE:82:27:14:BB:F9',
    'a=setup:actpass',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;

/** A phone on five networks with camera permission: ten UDP candidates, more than a code carries. */
export const fiveNetworksOffer = {
  type: 'offer',
  sdp: [
    'v=0',
    'o=- 1236685710990261372 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 45843 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 203.0.113.10',
    'a=candidate:2523770657 1 udp 2121932543 203.0.113.10 45843 typ host generation 0 network-id 1',
    'a=candidate:2168835041 1 udp 2121867007 203.0.113.11 56202 typ host generation 0 network-id 3',
    'a=candidate:187910264 1 udp 2121801471 203.0.113.8 43664 typ host generation 0 network-id 5',
    'a=candidate:471542968 1 udp 2121735935 203.0.113.9 38422 typ host generation 0 network-id 7',
    'a=candidate:3910000370 1 udp 2121670399 198.51.100.7 47172 typ host generation 0 network-id 9',
    'a=candidate:471277457 1 udp 2122265343 fd68:6f74:10::10 41905 typ host generation 0 network-id 2',
    'a=candidate:3961707974 1 udp 2122199807 fd68:6f74:11::11 50923 typ host generation 0 network-id 4',
    'a=candidate:50575888 1 udp 2122134271 fd68:6f74:8::8 52611 typ host generation 0 network-id 6',
    'a=candidate:2980073182 1 udp 2122068735 fd68:6f74:9::9 39672 typ host generation 0 network-id 8',
    'a=candidate:1147586771 1 udp 2122003199 fd68:6f74:7370::7 54189 typ host generation 0 network-id 10',
    'a=candidate:3908274732 1 tcp 1517952767 203.0.113.10 9 typ host tcptype active generation 0 network-id 1',
    'a=candidate:4292603628 1 tcp 1517887231 203.0.113.11 9 typ host tcptype active generation 0 network-id 3',
    'a=candidate:1974300021 1 tcp 1517821695 203.0.113.8 9 typ host tcptype active generation 0 network-id 5',
    'a=candidate:1652885941 1 tcp 1517756159 203.0.113.9 9 typ host tcptype active generation 0 network-id 7',
    'a=candidate:2543057919 1 tcp 1517690623 198.51.100.7 9 typ host tcptype active generation 0 network-id 9',
    'a=candidate:1653160604 1 tcp 1518285567 fd68:6f74:10::10 9 typ host tcptype active generation 0 network-id 2',
    'a=candidate:2461857995 1 tcp 1518220031 fd68:6f74:11::11 9 typ host tcptype active generation 0 network-id 4',
    'a=candidate:2107481885 1 tcp 1518154495 fd68:6f74:8::8 9 typ host tcptype active generation 0 network-id 6',
    'a=candidate:3476974547 1 tcp 1518088959 fd68:6f74:9::9 9 typ host tcptype active generation 0 network-id 8',
    'a=candidate:989392350 1 tcp 1518023423 fd68:6f74:7370::7 9 typ host tcptype active generation 0 network-id 10',
    'a=ice-ufrag:Xy5I',
    'a=ice-pwd:YAuuO9/NNbcqbIAJA6J49WyV',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 54:3A:70:B1:89:78:D6:28:91:65:C4:A4:99:CB:0A:07:06:EE:E7:28:65:4D:AC:0A:1B:E4:52:F4:A6:3B:3F:EE',
    'a=setup:actpass',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ]
    .map((line) => line + '\r\n')
    .join(''),
} as const;
