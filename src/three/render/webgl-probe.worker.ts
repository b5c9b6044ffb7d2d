// Answers the page (CanvasHost.tsx) once: can a worker here draw WebGL on an OffscreenCanvas?
// The context it makes for that is lost at once; the worker is terminated after its answer.
import { offscreenWebGL } from '../webgl-probe'

self.postMessage(offscreenWebGL())
