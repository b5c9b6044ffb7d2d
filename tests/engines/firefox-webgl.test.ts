import { inject } from 'vitest'
import { launchFirefox } from './support/firefox'
import { engineSuite } from './support/suite'

// In a window (Xvfb) with `webgl.force-enabled`, Gecko draws with Mesa's llvmpipe, in a worker:
// its OffscreenCanvas gives a WebGL context.
engineSuite(
  'Firefox ESR, in a window with WebGL',
  (site) => launchFirefox(site, { mode: 'webgl', display: inject('display') }),
  { three: { drawn: 'worker' }, pages: false },
)
