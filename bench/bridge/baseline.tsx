// The bytes both pages share: React and ReactDOM rendering one element. Subtracted from each
// approach's page bundle so the figure is the approach's own.
import { createRoot } from 'react-dom/client'

createRoot(document.getElementById('stage')!).render(<div />)
