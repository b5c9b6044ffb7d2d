// Approach A's page: @react-three/offscreen's Canvas in the hero's stage. It transfers its canvas
// to the worker, then forwards every pointer and wheel event over it, and resizes.
import './probe'
import { createRoot } from 'react-dom/client'
import { Canvas } from '@react-three/offscreen'

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
// The package's fallback is a main-thread R3F Canvas, which is why its page bundle holds
// three.js and R3F; `null` keeps the fallback scene empty, the bundle is the same.
createRoot(document.getElementById('stage')!).render(
  <Canvas worker={worker} fallback={null} dpr={1.5} />,
)
