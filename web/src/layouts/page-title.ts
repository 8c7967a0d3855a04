/** Spec section 2: the document title is '{route title} - {platform title}'. */
export function pageTitle(routeTitle: string | undefined, platformTitle: string): string {
  const title = routeTitle?.trim();
  return title ? `${title} - ${platformTitle}` : platformTitle;
}
