import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import prettier from 'eslint-config-prettier/flat'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description' },
      ],
    },
  },
  {
    // What the site and the production server run lives in src/ and server/; scripts/ holds
    // build, test and generate scripts, which may import the runtime but never the reverse.
    files: ['src/**', 'server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)scripts/',
              message:
                'src/ and server/ must not import from scripts/: move what runs at run time into server/ (or src/lib/) and import it from there.',
            },
          ],
        },
      ],
    },
  },
  {
    // The rules both the site and the services read (rules/: the look, the hotspots, the model
    // formats, the story, the forms' fields) sit below both: they import neither, nor a renderer.
    files: ['rules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|@services/|(\\.\\./)+(src|services|server|scripts)/)',
              message:
                'rules/ is what src/ and services/ both read: it imports neither (move the rule here, or the code that needs the site out of rules/).',
            },
            {
              regex: '^(three|react|react-dom|next|@react-three)(/|$)',
              message: 'rules/ is pure: no renderer, no React, no framework.',
            },
          ],
        },
      ],
    },
  },
  {
    // The services (the content and mail stand-ins, content:check) read the site's rules from
    // rules/, never from the site itself.
    files: ['services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@/|(^|/)src/',
              message:
                'services/ must not import the site (src/): a rule both read belongs in rules/.',
            },
          ],
        },
      ],
    },
  },
  globalIgnores([
    '.next/**',
    '.next-*/**',
    'node_modules/**',
    '.data/**',
    'test-results/**',
    'next-env.d.ts',
  ]),
])
