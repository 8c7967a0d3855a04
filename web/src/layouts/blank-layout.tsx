import { Suspense } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { ChunkErrorBoundary } from "../components/chunk-error-boundary";
import { PageLoading } from "../components/page-loading";
import { useDocumentTitle } from "./use-document-title";

/** Pages outside the two areas (share, source tools, test, errors): no menu, just the page. */
export function BlankLayout({ titleKey }: { titleKey?: string }) {
  useDocumentTitle(titleKey);
  const location = useLocation();
  return (
    <main style={{ minHeight: "100vh", padding: 24, boxSizing: "border-box" }}>
      <ChunkErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </ChunkErrorBoundary>
    </main>
  );
}
