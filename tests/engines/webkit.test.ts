import { inject } from 'vitest'
import { launchWebKit } from './support/webkit'
import { engineSuite } from './support/suite'

// WebKitGTK has OffscreenCanvas but no WebGL context on one: the 3D is drawn on the main thread.
engineSuite(
  'WebKitGTK (MiniBrowser)',
  (site) => launchWebKit(site, { display: inject('display') }),
  {
    three: { drawn: 'main' },
  },
)
