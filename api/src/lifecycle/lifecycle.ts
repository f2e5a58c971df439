/** Whether this process is on its way out; readiness reads it, the shutdown sets it. */
export interface Lifecycle {
  readonly shuttingDown: boolean;
}

export interface ControlledLifecycle extends Lifecycle {
  beginShutdown(): void;
}

export function createLifecycle(): ControlledLifecycle {
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
  };
}
