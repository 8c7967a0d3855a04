import { type Notifications, notificationsReady } from "../../db/notifications.js";
import type { DeliveryState } from "./deliveries.repository.js";

/** A delivery that changed: what an open publish monitor is told (it reloads what it shows). */
export interface DeliveryEvent {
  id: string;
  state: DeliveryState;
}

/**
 * Delivery changes as notices to every node (PostgreSQL LISTEN/NOTIFY; this
 * process only on SQLite): the delivery jobs run in any worker process, the
 * monitor's stream is held by whichever node the browser reached. Sent after
 * the change is committed; a notice that cannot be sent is only a warning
 * (the monitor falls back to asking again).
 */
export class DeliveryEvents {
  constructor(private readonly notifications: Notifications) {}

  async changed(events: DeliveryEvent[]): Promise<void> {
    for (const event of events) {
      await this.notifications
        .notify("publishing.delivery", JSON.stringify({ id: event.id, state: event.state }))
        .catch((error: unknown) => process.emitWarning(`a delivery notice was not sent: ${(error as Error).message}`));
    }
  }

  /** Resolves once notices from other nodes can arrive (PostgreSQL's LISTEN connection is up, or was tried). */
  ready(): Promise<void> {
    return notificationsReady(this.notifications);
  }

  /** Calls `listener` with every change on any node; `onGap` when some may have been missed. Returns the unsubscribe. */
  subscribe(listener: (event: DeliveryEvent) => void, onGap: () => void): () => void {
    const off = this.notifications.listen("publishing.delivery", (payload) => {
      try {
        listener(JSON.parse(payload) as DeliveryEvent);
      } catch {
        // Not ours to break on: a malformed notice is dropped.
      }
    });
    const offGap = this.notifications.onGap(onGap);
    return () => {
      off();
      offGap();
    };
  }
}
