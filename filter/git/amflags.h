/*
 * amflags.h - b4's shazam-am-flags (lore-am. or b4.): more arguments for
 * the trial `git am` of --apply, in every mode (b4 gives them only to
 * the plain shazam). Only git am's own flags that leave the trial a
 * trial pass: none that stops to ask (--interactive), resumes or ends an
 * am (--continue, --abort...), leaves a patch half applied (--reject),
 * names a file to read (a word that is no flag), or changes which files
 * the patches touch (-p, --directory, --include, --exclude: the small
 * tree holds the files the patches name). A flag's value is given in the
 * same word ("--whitespace=fix", "-C3"); long names are written in full
 * (git would take a prefix of any of its flags).
 *
 * Ownership: the returned vector is the caller's (g_strfreev).
 */
#ifndef LORE_AMFLAGS_H
#define LORE_AMFLAGS_H

#include <glib.h>

/*
 * @text split as a shell splits it (b4 uses Python's shlex): the flags,
 * an empty vector for NULL or blank @text, or NULL with @err saying
 * which word cannot be used (or that the quoting is broken).
 */
char **amflags_parse(const char *text, GError **err);

#endif
