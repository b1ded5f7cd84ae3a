// Readable on a phone (issue 18.2), one call per page: wide tables show that they scroll
// (hscroll.js) and marked cards, tiles and boards can be zoomed (zoom.js).

import { watchScrollers } from "./hscroll.js";
import { installZoom } from "./zoom.js";

export function installReadable(root = document.body) {
  watchScrollers(root);
  installZoom();
}
