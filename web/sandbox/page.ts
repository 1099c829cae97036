import { MAP_HEIGHT, MAP_WIDTH } from './projection.ts';

/**
 * The sandbox page's document and stylesheet: static text, the same for every request (nothing of
 * the request is written into it), served by functions/http/sandbox/get-sandbox-page.ts. The script and the
 * stylesheet are separate files of the same origin so the Content-Security-Policy can refuse every
 * inline script and style.
 */
export const SANDBOX_PAGE_PATH = '/sandbox';
export const SANDBOX_ASSETS_PATH = '/sandbox/assets';

/**
 * Only this origin: the script, the stylesheet and the API calls. No inline code, no frames, no
 * form posts elsewhere, no plugins; the map is drawn from data inside the script, so no image or
 * tile is ever loaded.
 */
export const SANDBOX_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every sandbox page response carries, beside its Content-Type. */
export const SANDBOX_PAGE_HEADERS = {
  'Content-Security-Policy': SANDBOX_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // The page and its assets change with each deployment; revalidating costs one small request.
  'Cache-Control': 'no-cache',
} as const;

export const SANDBOX_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox fleet · Fleet Fuel Guidance</title>
<link rel="icon" href="${SANDBOX_ASSETS_PATH}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${SANDBOX_ASSETS_PATH}/app.css">
<script src="${SANDBOX_ASSETS_PATH}/app.js" defer></script>
</head>
<body data-connected="false">
<header>
<h1>Sandbox fleet</h1>
<form id="key-form" autocomplete="off">
<label for="key">Test key</label>
<input id="key" name="key" type="password" autocomplete="off" placeholder="svc_test_…" spellcheck="false" aria-describedby="key-note">
<button type="submit">Connect</button>
<button type="button" id="forget-key" hidden>Forget key</button>
<p id="key-note">Kept in this tab only (sessionStorage) and sent only to this sandbox API.</p>
</form>
</header>
<div id="error" role="alert" hidden></div>
<p id="status" role="status">Enter a test key to see the sandbox fleet.</p>
<main>
<section id="map-panel" aria-labelledby="map-heading">
<h2 id="map-heading">Map</h2>
<svg id="map" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" role="img" aria-label="Map of the United States with the sandbox trucks, their routes and recommended stops">
<g id="outline-layer"></g>
<g id="routes-layer"></g>
<g id="stops-layer"></g>
<g id="trucks-layer"></g>
</svg>
<div id="controls" role="group" aria-label="Simulation controls">
<button type="button" data-advance-minutes="15" disabled>Advance 15 minutes</button>
<button type="button" data-advance-minutes="60" disabled>Advance 1 hour</button>
<button type="button" id="reset" disabled>Reset sandbox</button>
</div>
</section>
<section id="trucks-panel" aria-labelledby="trucks-heading">
<h2 id="trucks-heading">Trucks</h2>
<div id="trucks"></div>
</section>
<section id="events-panel" aria-labelledby="events-heading">
<h2 id="events-heading">Recent events</h2>
<ol id="events" aria-live="polite"></ol>
</section>
</main>
</body>
</html>
`;

/** A truck dot, so the browser's favicon request is answered from the same origin (not a 404). */
export const SANDBOX_PAGE_FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#1b6ac9"/></svg>';

export const SANDBOX_PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2730;background:#f7f9fa}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1rem;background:#1d2730;color:#fff}
h1{font-size:1.2rem;margin:0}
h2{font-size:1rem;margin:.25rem 0 .5rem}
h3{font-size:.95rem;margin:0 0 .35rem;display:flex;align-items:center;gap:.4rem}
#key-form{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
#key-form input{width:18rem;padding:.3rem .4rem}
#key-note{flex-basis:100%;margin:0;font-size:.8rem;color:#c7d1d9}
button{font:inherit;padding:.3rem .65rem;border:1px solid #51606c;border-radius:4px;background:#fff;color:#1d2730;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
button:focus-visible,input:focus-visible{outline:3px solid #f0b400;outline-offset:1px}
#error{margin:.75rem 1rem;padding:.5rem .75rem;border:1px solid #c9361b;background:#fdecea;border-radius:4px}
#error p{margin:.15rem 0}
#status{margin:.5rem 1rem;color:#4a5863}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(16rem,1.4fr);grid-template-rows:auto 1fr;grid-template-areas:"map trucks" "events trucks";align-items:start;gap:1rem;padding:0 1rem 1rem}
#map-panel{grid-area:map}
#trucks-panel{grid-area:trucks}
#events-panel{grid-area:events}
#map{width:100%;height:auto;display:block;background:#d7e6f0;border:1px solid #c2ccd4;border-radius:4px}
#controls{display:flex;gap:.5rem;margin-top:.5rem}
.truck-card{background:#fff;border:1px solid #d3dae0;border-radius:4px;padding:.6rem .75rem;margin-bottom:.75rem}
.fuel{display:flex;align-items:center;gap:.5rem}
.fuel meter{flex:1}
.facts{display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem;margin:.4rem 0}
.facts dt{color:#5b6873}
.facts dd{margin:0}
.scenarios{display:flex;flex-wrap:wrap;gap:.25rem}
.scenarios button{font-size:.75rem;padding:.15rem .4rem}
.scenarios button[aria-pressed="true"]{background:#1d2730;color:#fff}
#events{list-style:none;margin:0;padding:0;max-height:16rem;overflow:auto;background:#fff;border:1px solid #d3dae0;border-radius:4px}
#events li{padding:.25rem .6rem;border-bottom:1px solid #eef1f3}
#events time{color:#5b6873;font-variant-numeric:tabular-nums}
@media (max-width:52rem){main{grid-template-columns:1fr;grid-template-rows:auto;grid-template-areas:"map" "trucks" "events"}}
`;
