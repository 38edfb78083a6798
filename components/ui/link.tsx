import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The app's link: Next's, without prefetching what it points to. Every page here is dynamic
 * (it reads the database per request), so a prefetch is a full server render: the nav's 17
 * links were rendered again on every page view and on every URL change (the trajectory
 * inspector writes ?step= as the reader moves), and the task list's rows would render up to
 * 100 task pages. Measured in npm run bench:trajectory: a search's request waited 470 ms
 * behind those renders. A click renders the one page it opens.
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
