import js from "@eslint/js";
import tseslint from "typescript-eslint";
import layers from "./eslint-rules/layers.js";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "evals/results/**", "bench/results/**", "coverage/**", ".tools-build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  // Arrows point down the layers (docs/architecture.md).
  { files: ["src/**/*.ts"], plugins: { groundkit: layers }, rules: { "groundkit/layers": "error" } },
);
