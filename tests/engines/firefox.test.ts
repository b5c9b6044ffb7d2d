import { launchFirefox } from './support/firefox'
import { engineSuite } from './support/suite'

// Headless Firefox on a machine without a GPU has no WebGL at all: the 3D keeps its poster.
engineSuite('Firefox ESR, headless', (site) => launchFirefox(site, { mode: 'headless' }), {
  three: { poster: true },
})
