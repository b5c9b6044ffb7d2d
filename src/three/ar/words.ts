// The words of the in-page AR session (start.ts, session.ts), in the site's languages. They are the
// session's own controls and guidance, not content: kept with its code so that they cost the page
// nothing before the visitor presses the AR button. The button's own label comes from the slice.

export type ArWords = {
  leave: string
  place: string
  pause: string
  play: string
  turnLeft: string
  turnRight: string
  smaller: string
  larger: string
  starting: string
  loading: string
  searchFloor: string
  searchWall: string
  ready: string
  noSurface: string
  placed: (size: string, percent: number) => string
  turned: (degrees: number) => string
  loadFailed: (reason: string) => string
  again: string
  startFailed: (reason: string) => string
  codeFailed: (reason: string) => string
}

const EN: ArWords = {
  leave: 'Leave AR',
  place: 'Place it here',
  pause: 'Pause the animation',
  play: 'Play the animation',
  turnLeft: 'Turn left',
  turnRight: 'Turn right',
  smaller: 'Smaller',
  larger: 'Larger',
  starting: 'Starting AR…',
  loading: 'Loading the model…',
  searchFloor: 'Move your phone slowly and point it at the floor.',
  searchWall: 'Move your phone slowly and point it at a wall.',
  ready: 'Tap to place the model here.',
  noSurface: 'No surface found there yet: point your phone at it a little longer.',
  placed: (size, percent) =>
    percent === 100
      ? `Placed at its true size, ${size}. To move it, point at another spot and tap; turn it with the buttons.`
      : `Placed at ${percent}% of its true size (${size} at 100%). To move it, point at another spot and tap.`,
  turned: (degrees) => `Turned to ${degrees}°.`,
  loadFailed: (reason) =>
    `The model could not be loaded (${reason}). Leave AR to return to the page.`,
  again: 'AR did not start: tap the button again.',
  startFailed: (reason) => `AR could not start on this device (${reason}).`,
  codeFailed: (reason) =>
    `AR could not be loaded (${reason}). Check the connection, leave AR and press the button again.`,
}

const FR: ArWords = {
  leave: 'Quitter la RA',
  place: 'Poser ici',
  pause: 'Mettre l’animation en pause',
  play: 'Relancer l’animation',
  turnLeft: 'Tourner à gauche',
  turnRight: 'Tourner à droite',
  smaller: 'Plus petit',
  larger: 'Plus grand',
  starting: 'Démarrage de la RA…',
  loading: 'Chargement du modèle…',
  searchFloor: 'Déplacez lentement votre téléphone et pointez-le vers le sol.',
  searchWall: 'Déplacez lentement votre téléphone et pointez-le vers un mur.',
  ready: 'Touchez pour poser le modèle ici.',
  noSurface: 'Aucune surface trouvée là : pointez votre téléphone un peu plus longtemps.',
  placed: (size, percent) =>
    percent === 100
      ? `Posé à sa taille réelle, ${size}. Pour le déplacer, visez un autre endroit et touchez ; tournez-le avec les boutons.`
      : `Posé à ${percent} % de sa taille réelle (${size} à 100 %). Pour le déplacer, visez un autre endroit et touchez.`,
  turned: (degrees) => `Tourné à ${degrees}°.`,
  loadFailed: (reason) =>
    `Le modèle n’a pas pu être chargé (${reason}). Quittez la RA pour revenir à la page.`,
  again: 'La RA n’a pas démarré : touchez à nouveau le bouton.',
  startFailed: (reason) => `La RA n’a pas pu démarrer sur cet appareil (${reason}).`,
  codeFailed: (reason) =>
    `La RA n’a pas pu être chargée (${reason}). Vérifiez la connexion, quittez la RA et touchez à nouveau le bouton.`,
}

/** The words for the page's language (`<html lang>`, as `fr-fr`), English where none is written. */
export function arWords(lang: string): ArWords {
  return lang.toLowerCase().startsWith('fr') ? FR : EN
}

/** A model's size in metres, as the visitor reads it: width × height × depth. */
export function sizeInMetres(width: number, height: number, depth: number, lang: string): string {
  const format = new Intl.NumberFormat(lang || 'en', { maximumFractionDigits: 2 })
  return `${[width, height, depth].map((n) => format.format(n)).join(' × ')} m`
}
