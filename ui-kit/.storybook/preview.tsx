import type { Decorator, Preview } from "@storybook/react-vite";
import "../src/theme/styles.css";
import { type AuthdScenario, createMockAuthd } from "../stories/mock/authd.js";
import { StoryFrame } from "../stories/mock/frame.js";

const LOCALES = [
  { value: "en", title: "English" },
  { value: "ru", title: "Русский" },
  { value: "uk", title: "Українська" },
  { value: "es", title: "Español" },
  { value: "de", title: "Deutsch" },
  { value: "pl", title: "Polski" },
  { value: "fr", title: "Français" },
  { value: "tr", title: "Türkçe" },
  { value: "pseudo", title: "Pseudo (long, accented)" },
];

const withAuthProvider: Decorator = (Story, context) => (
  <StoryFrame
    authd={context.loaded.authd}
    locale={context.globals.locale ?? "en"}
    appearance={context.globals.appearance === "dark" ? "dark" : "light"}
  >
    <Story />
  </StoryFrame>
);

const preview: Preview = {
  globalTypes: {
    locale: {
      description: "The kit's language",
      toolbar: { title: "Language", icon: "globe", items: LOCALES, dynamicTitle: true },
    },
    appearance: {
      description: "Light or dark",
      toolbar: {
        title: "Appearance",
        icon: "mirror",
        items: [
          { value: "light", title: "Light", icon: "sun" },
          { value: "dark", title: "Dark", icon: "moon" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: "en", appearance: "light" },
  // A fresh in-memory authd per render, built from the story's `parameters.authd`;
  // play functions read it as `context.loaded.authd` to check what was sent.
  loaders: [
    async ({ parameters }) => ({
      authd: createMockAuthd((parameters.authd ?? {}) as AuthdScenario),
    }),
  ],
  decorators: [withAuthProvider],
  parameters: {
    layout: "fullscreen",
    controls: { matchers: { color: /(background|color)$/i } },
  },
};

export default preview;
