// How fast this device draws, measured on the renderer's own context (no second context): a few
// draws of a shader-heavy quad into a small off-screen target, each timed to its read-back. The
// tier comes from these times (resolution.ts, `tierFromProbe`), never from the renderer's name:
// WebKit calls its software renderer "Apple GPU", and names can say anything.
import {
  Mesh,
  OrthographicCamera,
  PlaneGeometry,
  Scene,
  ShaderMaterial,
  WebGLRenderTarget,
  type WebGLRenderer,
} from 'three'

/** The probe's target, in pixels per side: small enough for a software renderer to pass fast. */
const SIZE = 384
/** Draws: the first (which may still link the program, and allocates the target) is not counted. */
export const PROBE_DRAWS = 4

const VERTEX = /* glsl */ `
varying vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position.xy, 0.0, 1.0);
}`

// Enough arithmetic per pixel that the time is the fragment work, not the call's overhead.
const FRAGMENT = /* glsl */ `
uniform float seed;
varying vec2 vUv;
void main() {
  vec2 p = vUv * 6.0 + seed;
  float a = 0.0;
  for (int i = 0; i < 48; i++) {
    a += sin(p.x * float(i) + a) * cos(p.y - a * 0.5);
  }
  gl_FragColor = vec4(vec3(fract(a)), 1.0);
}`

/** Resolves in a later task: on the main-thread path each draw is a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve))

/**
 * Times `PROBE_DRAWS` draws on `gl`'s context, each in a task of its own, and returns their
 * durations in milliseconds (the first one includes the target's allocation and what is left of
 * the shader's compile). Leaves the renderer as
 * it found it: its target is the canvas again and the probe's resources are released.
 */
export async function probeGpu(gl: WebGLRenderer): Promise<number[]> {
  const target = new WebGLRenderTarget(SIZE, SIZE, { depthBuffer: false })
  const material = new ShaderMaterial({
    vertexShader: VERTEX,
    fragmentShader: FRAGMENT,
    uniforms: { seed: { value: 0 } },
    depthTest: false,
    depthWrite: false,
  })
  const geometry = new PlaneGeometry(2, 2)
  const quad = new Mesh(geometry, material)
  quad.frustumCulled = false
  const scene = new Scene().add(quad)
  const camera = new OrthographicCamera()
  const pixel = new Uint8Array(4)
  const samples: number[] = []
  try {
    // The shader compiles without stalling where the driver can (KHR_parallel_shader_compile).
    await gl.compileAsync(scene, camera)
    for (let i = 0; i < PROBE_DRAWS; i++) {
      await nextTask()
      material.uniforms.seed.value = i
      const start = performance.now()
      gl.setRenderTarget(target)
      gl.render(scene, camera)
      // Reading a pixel back waits for the draw to finish: the time is the GPU's (or the CPU's).
      gl.readRenderTargetPixels(target, 0, 0, 1, 1, pixel)
      samples.push(performance.now() - start)
    }
  } finally {
    gl.setRenderTarget(null)
    target.dispose()
    material.dispose()
    geometry.dispose()
  }
  return samples
}
