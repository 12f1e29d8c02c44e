// @gantry/cli public API: runCli, parseCliArguments, CliOptions, CliMode, CliError, CliErrorCode, selectModel,
// ModelChoice, SelectedModel, cwdSlug, sessionKey, sessionFolder, latestSessionFile, chooseSessionFile, SessionView,
// SessionViewOptions, renderToolFrame, ansiTheme.
export { type CliMode, type CliOptions, parseCliArguments } from "./args.js";
export { runCli } from "./cli.js";
export { CliError, type CliErrorCode } from "./errors.js";
export { type ModelChoice, type SelectedModel, selectModel } from "./model-selection.js";
export { chooseSessionFile, cwdSlug, latestSessionFile, sessionFolder, sessionKey } from "./sessions.js";
export { SessionView, type SessionViewOptions } from "./tui/session-view.js";
export { ansiTheme } from "./tui/theme.js";
export { renderToolFrame } from "./tui/tool-frame.js";
