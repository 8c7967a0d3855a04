import { message } from "antd";
import {
  Component,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useState,
} from "react";
import { i18n } from "../locales";
import { withChunkTimeout } from "../router/chunk-load";

/**
 * A component kept out of the initial bundle and loaded on first render, with
 * spec section 8's chunk failure: 'Loading chunk {name} failed', also after 120 s.
 */
export function lazyChunk<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    withChunkTimeout(
      async () => ({ default: await load() }),
      name,
      (chunk) => i18n.t("error.chunkLoad", { name: chunk }),
    ),
  );
}

/** A part of a page (a dialog, a drawer) whose chunk failed: the message as a toast, the rest of the page unharmed. */
class PartErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    void message.error(error.message);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** Renders a lazily loaded part; nothing while its chunk loads, a toast if it cannot. */
export function LazyPart({ children }: { children: ReactNode }) {
  return (
    <PartErrorBoundary>
      <Suspense fallback={null}>{children}</Suspense>
    </PartErrorBoundary>
  );
}

/**
 * True from the first time `open` is: a lazily loaded dialog is fetched when it
 * is first opened and then stays mounted, so that it can animate its closing.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
