// The names the page's JavaScript (web/) types itself with, through JSDoc: `Api<'GameView'>` is
// the schema of that name in the OpenAPI document (generated/openapi.d.ts, made from
// openapi/openapi.json by openapi-typescript). A schema renamed or reshaped in the document
// fails scripts/check-page-types wherever the page reads it through a typed value (not through
// a cast, nor a field read by a string key). Nothing here reaches the browser.

import type { components } from "./generated/openapi.js";

declare global {
  /** The OpenAPI document's schema named `K`. */
  type Api<K extends keyof components["schemas"]> = components["schemas"][K];
}
