// The 404 page (static/404.html, served by the server in the browser's language): the
// language switch and the remembered language, as on every page.

import { initI18n } from "./i18n.js";
import { mountHeader } from "./common.js";

await initI18n();
mountHeader();
