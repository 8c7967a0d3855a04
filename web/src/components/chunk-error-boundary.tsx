import { Component, type ReactNode } from "react";
import { StatusNotice } from "./status-notice";

interface State {
  error: Error | null;
}

/** Shows a lazy page's load failure ('Loading chunk … failed') in place of the page. */
export class ChunkErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error) return <StatusNotice status="warning" title={this.state.error.message} />;
    return this.props.children;
  }
}
