/// <reference lib="webworker" />
import { Engine } from './engine.ts';
import { listen } from './store.ts';
import type { WorkerCommand } from './worker-protocol.ts';
import { LOCKS } from '../../../lib/storage-names.ts';

/**
 * The engine worker: all network and disk I/O of in-app downloads happens here, off the page's thread, where
 * OPFS sync access handles exist. Each tab spawns one; a Web Lock lets only one of them run the engine, and the
 * next one takes over when that tab closes.
 */
const engine = new Engine();

self.addEventListener('message', (event: MessageEvent<WorkerCommand>) => {
  const command = event.data;
  if (command.type === 'auth') engine.setAuth(command.ownerId, command.token, command.deviceId);
  else if (command.type === 'settings') engine.setWifiOnly(command.wifiOnly);
  else engine.kick();
});

listen((message) => {
  if (message.type === 'changed') void engine.onRecordChanged(message.key);
  else if (message.type === 'kick') engine.kick();
});

// Wi-Fi found or lost: look again at once.
(navigator as Navigator & { connection?: EventTarget }).connection?.addEventListener('change', () => engine.kick());

void navigator.locks.request(LOCKS.downloadEngine, () => engine.run());
