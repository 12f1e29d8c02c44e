/**
 * Variables that change which program a name runs, or make bash and other programs run code of their
 * own choosing: `PATH`, the dynamic loader's, bash's start-up and prompt variables (`PS4` is expanded,
 * command substitutions included, under `set -x`), exported functions (`BASH_FUNC_f%%`), and the pagers,
 * editors and option variables programs read and run. An assignment to one of them means a rule on the
 * command names in the line cannot vouch for what runs.
 */
const CODE_VARIABLES =
	/^(?:PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS[0-4]|PROMPT_COMMAND|BASH_FUNC_.*|BASH_LOADABLES_PATH|EXECIGNORE|IFS|HOME|XDG_CONFIG_HOME|ZDOTDIR|GCONV_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|NODE_OPTIONS|NODE_PATH|RUBYOPT|RUBYLIB|GIT_\w+|PAGER|MANPAGER|MANOPT|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS|TAR_OPTIONS|GREP_OPTIONS|SHELL|TERMINFO|MAKEFLAGS|MAKEFILES)$/;

/** Whether assigning `name` can change what runs (see {@link CODE_VARIABLES}). */
export function changesWhatRuns(name: string): boolean {
	return CODE_VARIABLES.test(name);
}

/** Variables a read-only command may be given in front of it (`LC_ALL=C sort`, `GIT_PAGER=cat git log`). */
const HARMLESS_VARIABLES =
	/^(?:LC_\w+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|LINES|TERM|POSIXLY_CORRECT)$/;

/** Whether `NAME=value` in front of a read-only command keeps it read-only (`GIT_PAGER=cat` and `PAGER=cat` too). */
export function isHarmlessAssignment(name: string, value: string): boolean {
	if (HARMLESS_VARIABLES.test(name)) return true;
	return (name === "GIT_PAGER" || name === "PAGER") && (value === "cat" || value === "");
}
