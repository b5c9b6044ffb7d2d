// Approach B's page: the site's own bridge, CanvasHost, as it ships. One slot registers in the
// store as ThreeSlot would (a viewer, so a drag over it becomes view commands); CanvasHost then
// transfers a viewport-sized canvas to its worker and sends rectangles once per animation frame
// on scroll. The worker it starts (./render/render.worker.ts beside this bundle) is
// bench/bridge/b-worker.tsx, which draws the benchmark's scene instead of the site's.
import './probe'
import { createRoot } from 'react-dom/client'
import CanvasHost from '../../src/three/CanvasHost'
import { threeStore } from '../../src/three/store'
import { DEFAULT_CAMERA, DEFAULT_LOOK } from '../../rules/look'

threeStore.register({
  id: 'hero',
  element: document.getElementById('stage')!,
  spec: {
    kind: 'viewer',
    url: '/knot.glb',
    autoRotate: true,
    animate: true,
    clip: null,
    look: DEFAULT_LOOK,
    camera: DEFAULT_CAMERA,
  },
  reducedMotion: false,
  paused: false,
  visible: true,
})
const host = document.createElement('div')
document.body.append(host)
createRoot(host).render(<CanvasHost />)
