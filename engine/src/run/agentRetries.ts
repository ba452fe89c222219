/**
 * The agent's model retries on its own schedule, inside the adapter: this relay carries those
 * retries to the run while it runs, so they are journaled beside the persona's and shown on the
 * progress line. Notices from before the run connects or after it ends are dropped: there is no
 * journal to put them in.
 */
import type { RetryNotice } from '../models/chat';

export type RetrySink = (model: string, notice: RetryNotice) => void;

export class AgentRetries {
  private sink: RetrySink | undefined;

  /** Given to the agent's models as their retry listener (`ModelContext.onRetry`). */
  readonly notify: RetrySink = (model, notice) => this.sink?.(model, notice);

  connect(sink: RetrySink): void {
    this.sink = sink;
  }

  disconnect(): void {
    this.sink = undefined;
  }
}
