// The words of a 3D slot's controls and messages where the slice leaves a field empty, in the
// site's languages. Every one of them is the slice's first (fields.ts reads the field, then falls
// back here): an editor words the viewer for the page, and a field left empty still gives a
// visitor a named button and a message a screen reader hears. Kept small and beside the slot,
// as the AR session's words are (../ar/words.ts).

/** What a slot says and names, once the slice's fields and these defaults are merged. */
export type SlotWords = {
  turnLeft: string
  turnRight: string
  tiltUp: string
  tiltDown: string
  zoomIn: string
  zoomOut: string
  reset: string
  pause: string
  play: string
  /** Shown over the stage when a plain wheel turn scrolls the page past it. */
  zoomHint: string
  /** The same hint on Apple's keyboards (⌘ rather than Ctrl), where the slice wrote none. */
  zoomHintMac: string
  /** Heard when the viewer's model is live. */
  live: string
  /** Heard when the view is reset. */
  resetDone: string
  /** Shown and heard when the scene cannot be drawn. */
  failed: string
}

const EN: SlotWords = {
  turnLeft: 'Turn left',
  turnRight: 'Turn right',
  tiltUp: 'Tilt up',
  tiltDown: 'Tilt down',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  reset: 'Reset view',
  pause: 'Pause the motion',
  play: 'Play the motion',
  zoomHint: 'Hold Ctrl and scroll to zoom',
  zoomHintMac: 'Hold ⌘ and scroll to zoom',
  live: 'The 3D model is ready: the buttons below it turn and zoom it.',
  resetDone: 'View reset.',
  failed: 'The 3D model could not load: the picture shows it instead.',
}

const FR: SlotWords = {
  turnLeft: 'Tourner à gauche',
  turnRight: 'Tourner à droite',
  tiltUp: 'Incliner vers le haut',
  tiltDown: 'Incliner vers le bas',
  zoomIn: 'Zoomer',
  zoomOut: 'Dézoomer',
  reset: 'Réinitialiser la vue',
  pause: 'Mettre le mouvement en pause',
  play: 'Relancer le mouvement',
  zoomHint: 'Maintenez Ctrl et faites défiler pour zoomer',
  zoomHintMac: 'Maintenez ⌘ et faites défiler pour zoomer',
  live: 'Le modèle 3D est prêt : les boutons en dessous le tournent et le zooment.',
  resetDone: 'Vue réinitialisée.',
  failed: 'Le modèle 3D n’a pas pu se charger : l’image le montre à sa place.',
}

/** The defaults for a page's language (`fr-fr`, `en-us`…), English where none is written. */
export function slotWords(lang: string): SlotWords {
  return lang.toLowerCase().startsWith('fr') ? FR : EN
}
