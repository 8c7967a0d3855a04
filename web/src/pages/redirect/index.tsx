import { useEffect } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { PageLoading } from "../../components/page-loading";
import { redirectTarget } from "./redirect-target";

/**
 * A hop through this route remounts the target page, which is how a tab is
 * reloaded: /redirect?to=/upload/image or /redirect/upload/image.
 */
export default function RedirectPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const to = params.get("to");
    const rest = new URLSearchParams(params);
    rest.delete("to");
    const search = rest.toString() ? `?${rest.toString()}` : "";
    navigate(redirectTarget(location.pathname, to, search), { replace: true });
  }, [location.pathname, params, navigate]);
  return <PageLoading />;
}
