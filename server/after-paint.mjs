// Loads a page's framework scripts after its first paint.
//
// Next.js writes each of a page's chunks as `<script src async>` in the head. On a slow phone
// the ~140 KB of framework code then shares the network with the page's images and the main
// thread with its first layout, before anything is painted. The production server
// (server/site.mjs) takes those tags out and ends the body with one small inline loader that
// adds the same scripts after the next frame: the server-rendered page (text, poster, links)
// is painted first, then the scripts load and React hydrates it. The order among the chunks does not matter: Turbopack's runtime waits for the
// chunks it needs, as it does for async scripts. A hidden tab, which paints no frames, gets the
// scripts at once.
//
// The trade: scripts start downloading a frame later, after the HTML is parsed, rather than
// while it is. Measured with Lighthouse mobile (simulated slow 4G, 4× slower CPU; 3 runs each,
// this machine), the largest paint came down from 1850–2150 ms to 720–800 ms on the home, contact
// and project pages, and time to interactive did not grow (2000–2450 ms before, 1560–2450 after):
// the scripts no longer compete with the page for the network. Preloading them instead (tried)
// kept them on the path to the largest paint.
//
// The page's largest paint is usually its hero image (`fetchpriority="high"`), which can arrive
// after the first frame. Scripts requested before it is painted are back on its path: Lighthouse's
// simulation then counts the framework's code before the largest paint. With the scripts added
// after the first frame only, the home, showcase and project pages scored LCP 751–2,057 ms in 11
// runs here, 6 of them 1.9–2.1 s (4 scoring 99), as the image or the scripts came first. So the
// loader also waits for the page's high-priority images to load (or fail) and for two frames after
// that, but never more than HERO_WAIT_MS: a stalled image must not keep the page from its
// scripts. Measured the same way, 751–982 ms in 12 runs, each scoring 100.
//
// Written here because Next.js has no option for the timing of its own chunk scripts: its
// `<Script strategy>` applies to scripts a page adds, not to the framework's.

/** A chunk script exactly as Next.js writes it. */
const CHUNK_SCRIPT = /<script src="(\/_next\/static\/[^"<>]+\.js)" async=""><\/script>/g
const PRELOAD = /<link rel="preload" as="script"[^>]*\shref="([^"]+)"[^>]*>/g

const LOADER_START = '(function(s){'
/** The longest the scripts wait for the page's high-priority images, in milliseconds. */
export const HERO_WAIT_MS = 1000

// `go` adds the scripts once; `frames(k)` calls it after k frames; `n` counts the hero images
// still loading. A page with a hero waits two frames: a large image's raster can end after the
// main thread's part of the first (traced on the work page: scripts requested 47 ms after the
// cover loaded, the cover on screen 63 ms later), and the scripts must come after it is shown.
const LOADER_BODY =
  'var d=0;function go(){if(d)return;d=1;for(var i=0;i<s.length;i++){' +
  'var e=document.createElement("script");e.src=s[i];e.async=true;document.head.appendChild(e)}}' +
  'function frames(k){requestAnimationFrame(function(){if(--k>0)frames(k);else setTimeout(go,0)})}' +
  'if(document.visibilityState==="hidden")go();' +
  'else{document.addEventListener("visibilitychange",go);' +
  'var h=document.querySelectorAll("img[fetchpriority=high]"),n=1;' +
  'function one(){if(--n===0)frames(h.length?2:1)}' +
  'for(var j=0;j<h.length;j++)if(!h[j].complete){n++;' +
  'h[j].addEventListener("load",one);h[j].addEventListener("error",one)}' +
  `if(n>1)setTimeout(go,${HERO_WAIT_MS});` +
  'one()}'
const LOADER_END = '})('
const LOADER = /^\(function\(s\)\{(.*)\}\)\((\[[^<]*\])\)$/s

/** The loader for these script URLs. */
export function afterPaintLoader(srcs) {
  return `${LOADER_START}${LOADER_BODY}${LOADER_END}${JSON.stringify(srcs)})`
}

/** Whether an inline script is exactly a loader this module wrote (for the CSP's hashes). */
export function isAfterPaintLoader(body) {
  const match = LOADER.exec(body)
  if (!match || match[1] !== LOADER_BODY) return false
  try {
    const srcs = JSON.parse(match[2])
    return (
      Array.isArray(srcs) &&
      srcs.length > 0 &&
      srcs.every((src) => typeof src === 'string' && /^\/_next\/static\/[^"<>]+\.js$/.test(src))
    )
  } catch {
    return false
  }
}

/** The page with its chunk scripts preloaded and run after the first paint. */
export function scriptsAfterFirstPaint(html) {
  const srcs = []
  if (!html.includes('</body>')) return html
  // Next's error shell (a missing page under the dynamic root layout, for one) has nothing to
  // paint until its scripts render it: they load at once there.
  if (html.includes('id="__next_error__"')) return html
  let out = html.replace(CHUNK_SCRIPT, (_tag, src) => {
    srcs.push(src)
    return ''
  })
  if (srcs.length === 0) return html
  // Next's own early preload of a chunk would put it back ahead of the page.
  const deferred = new Set(srcs)
  out = out.replace(PRELOAD, (tag, href) => (deferred.has(href) ? '' : tag))
  // At the end of the body: the scripts are added once the whole page is parsed and painted,
  // after Next's own inline scripts (its data and its chunk registration) have run.
  const at = out.lastIndexOf('</body>')
  return `${out.slice(0, at)}<script>${afterPaintLoader(srcs)}</script>${out.slice(at)}`
}
