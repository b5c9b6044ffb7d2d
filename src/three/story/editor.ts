// "Copy this view", for an editor previewing a story (a Prismic preview, or `?debug3d=pick`): the
// stage turns by a drag and moves in or out with Ctrl or ⌘ and the wheel, as a viewer does, on top
// of the scroll's pose; a button gives the camera values of what the stage shows, in the syntax
// of a step's fields, and copies them. Made here, in the host's chunk: visitors' pages carry
// nothing of it.
import type { SlotEntry, ViewCommand } from '../store'
import type { StoryViewFields } from '@rules/story'
import { wireViewer } from '../viewer/gestures'

const HINT = 'Scroll to a step, drag the model to turn it, then copy this view into the step.'

/** The line an editor pastes from: each field's label as the slice names it, and its value. */
export function storyViewText(fields: StoryViewFields): string {
  return `Camera ${fields.view} · Target ${fields.target} · Field of view ${fields.field_of_view}`
}

/** Adds the tool under a story's stage; returns its removal. */
export function wireStoryEditor(slot: SlotEntry, command: (c: ViewCommand) => void): () => void {
  const unwire = wireViewer(slot, command, false)
  const tool = document.createElement('div')
  tool.dataset.storyEditor = ''
  tool.style.cssText =
    'display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;margin-top:0.5rem;font-size:0.875rem'
  const readout = document.createElement('output')
  const copy = document.createElement('button')
  copy.type = 'button'
  copy.textContent = 'Copy this view'
  copy.addEventListener('click', () => {
    // Until the renderer answers (showStoryView).
    readout.textContent = 'Reading the view…'
    command({ type: 'read-view' })
  })
  const back = document.createElement('button')
  back.type = 'button'
  back.textContent = 'Back to the step’s view'
  back.addEventListener('click', () => command({ type: 'reset' }))
  readout.dataset.storyView = ''
  readout.setAttribute('aria-live', 'polite')
  readout.textContent = HINT
  tool.append(copy, back, readout)
  slot.element.parentElement?.append(tool)
  return () => {
    unwire()
    tool.remove()
  }
}

/** Shows the renderer's answer to "copy this view" under the stage, and copies it. */
export function showStoryView(slot: SlotEntry | undefined, fields: StoryViewFields): void {
  const readout = slot?.element.parentElement?.querySelector('[data-story-view]')
  if (!readout) return
  const text = storyViewText(fields)
  readout.textContent = text
  // The clipboard may refuse (no permission, no focus): the line is there to select either way.
  void navigator.clipboard?.writeText(text).then(
    () => (readout.textContent = `${text} (copied)`),
    () => {},
  )
}
