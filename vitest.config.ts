import { defineConfig } from 'vitest/config';

// One project per kind of test; the folder picks the project.
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/spec/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
    ],
  },
});
