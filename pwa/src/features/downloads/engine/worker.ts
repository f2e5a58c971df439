/// <reference lib="webworker" />
import type { WorkerCommand } from './worker-protocol.ts';

// The engine loop lands in the next commit; this entry exists so the page can spawn it.
self.addEventListener('message', (event: MessageEvent<WorkerCommand>) => {
  void event.data;
});
