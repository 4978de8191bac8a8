/*
 * nmlib.h - libnotmuch, loaded on first use (core/dynlib.h) when the
 * notmuch source first opens a database (or the queue moves its tags,
 * cli/queuetag.c), instead of linked: linking it
 * brings Xapian and the C++ runtime into every run, which doubled what
 * starting lore-am cost (4.5 M instructions to 8.9 M, 5.1 MB resident to
 * 7.7 MB), also for the runs that never ask notmuch.
 *
 * nm.c includes this after <notmuch.h> and calls notmuch by its own names,
 * each a call through nmlib's pointers, once dynlib_load(&nmlib.dl, ...)
 * has said yes: the library of the major version notmuch.h was built
 * against.
 */
#ifndef LORE_NMLIB_H
#define LORE_NMLIB_H

#include "core/dynlib.h"

#include <notmuch.h>

/* Every libnotmuch function nm.c and cli/queuetag.c call. */
#define NMLIB_FUNCTIONS(X, lib)                                                \
	X(lib, notmuch_database_open_with_config)                              \
	X(lib, notmuch_database_destroy)                                       \
	X(lib, notmuch_database_get_path)                                      \
	X(lib, notmuch_database_status_string)                                 \
	X(lib, notmuch_database_find_message)                                  \
	X(lib, notmuch_status_to_string)                                       \
	X(lib, notmuch_query_create)                                           \
	X(lib, notmuch_query_set_sort)                                         \
	X(lib, notmuch_query_search_messages)                                  \
	X(lib, notmuch_query_destroy)                                          \
	X(lib, notmuch_messages_valid)                                         \
	X(lib, notmuch_messages_get)                                           \
	X(lib, notmuch_messages_move_to_next)                                  \
	X(lib, notmuch_message_get_thread_id)                                  \
	X(lib, notmuch_message_get_filenames)                                  \
	X(lib, notmuch_message_destroy)                                        \
	X(lib, notmuch_filenames_valid)                                        \
	X(lib, notmuch_filenames_get)                                          \
	X(lib, notmuch_filenames_move_to_next)                                 \
	X(lib, notmuch_filenames_destroy)                                      \
	X(lib, notmuch_database_get_config)                                    \
	X(lib, notmuch_message_get_tags)                                       \
	X(lib, notmuch_tags_valid)                                             \
	X(lib, notmuch_tags_get)                                               \
	X(lib, notmuch_tags_move_to_next)                                      \
	X(lib, notmuch_tags_destroy)                                           \
	X(lib, notmuch_message_add_tag)                                        \
	X(lib, notmuch_message_remove_tag)                                     \
	X(lib, notmuch_message_freeze)                                         \
	X(lib, notmuch_message_thaw)

struct nmlib {
	struct dynlib dl;
	NMLIB_FUNCTIONS(DYNLIB_POINTER, _)
};

extern struct nmlib nmlib;

/*
 * Is there a notmuch configuration file for libnotmuch to read, by its
 * own search when no path is given (notmuch.h,
 * notmuch_database_open_with_config()): $NOTMUCH_CONFIG when set, else
 * $XDG_CONFIG_HOME/notmuch/PROFILE/config ($XDG_CONFIG_HOME ~/.config
 * when unset, PROFILE $NOTMUCH_PROFILE or "default"), else
 * ~/.notmuch-config (".PROFILE" after it when $NOTMUCH_PROFILE is set)?
 * Without one the library says NOTMUCH_STATUS_NO_CONFIG, fatal: asked
 * first, a run on a machine without notmuch set up does not load it
 * (Xapian and the C++ runtime) to hear that.
 */
gboolean nmlib_configured(void);

#define NMLIB_REDIRECT(f) DYNLIB_CALL(nmlib, f)
#define notmuch_database_open_with_config                                      \
	NMLIB_REDIRECT(notmuch_database_open_with_config)
#define notmuch_database_destroy NMLIB_REDIRECT(notmuch_database_destroy)
#define notmuch_database_get_path NMLIB_REDIRECT(notmuch_database_get_path)
#define notmuch_database_status_string                                         \
	NMLIB_REDIRECT(notmuch_database_status_string)
#define notmuch_database_find_message                                          \
	NMLIB_REDIRECT(notmuch_database_find_message)
#define notmuch_status_to_string NMLIB_REDIRECT(notmuch_status_to_string)
#define notmuch_query_create NMLIB_REDIRECT(notmuch_query_create)
#define notmuch_query_set_sort NMLIB_REDIRECT(notmuch_query_set_sort)
#define notmuch_query_search_messages                                          \
	NMLIB_REDIRECT(notmuch_query_search_messages)
#define notmuch_query_destroy NMLIB_REDIRECT(notmuch_query_destroy)
#define notmuch_messages_valid NMLIB_REDIRECT(notmuch_messages_valid)
#define notmuch_messages_get NMLIB_REDIRECT(notmuch_messages_get)
#define notmuch_messages_move_to_next                                          \
	NMLIB_REDIRECT(notmuch_messages_move_to_next)
#define notmuch_message_get_thread_id                                          \
	NMLIB_REDIRECT(notmuch_message_get_thread_id)
#define notmuch_message_get_filenames                                          \
	NMLIB_REDIRECT(notmuch_message_get_filenames)
#define notmuch_message_destroy NMLIB_REDIRECT(notmuch_message_destroy)
#define notmuch_filenames_valid NMLIB_REDIRECT(notmuch_filenames_valid)
#define notmuch_filenames_get NMLIB_REDIRECT(notmuch_filenames_get)
#define notmuch_filenames_move_to_next                                         \
	NMLIB_REDIRECT(notmuch_filenames_move_to_next)
#define notmuch_filenames_destroy NMLIB_REDIRECT(notmuch_filenames_destroy)
#define notmuch_database_get_config NMLIB_REDIRECT(notmuch_database_get_config)
#define notmuch_message_get_tags NMLIB_REDIRECT(notmuch_message_get_tags)
#define notmuch_tags_valid NMLIB_REDIRECT(notmuch_tags_valid)
#define notmuch_tags_get NMLIB_REDIRECT(notmuch_tags_get)
#define notmuch_tags_move_to_next NMLIB_REDIRECT(notmuch_tags_move_to_next)
#define notmuch_tags_destroy NMLIB_REDIRECT(notmuch_tags_destroy)
#define notmuch_message_add_tag NMLIB_REDIRECT(notmuch_message_add_tag)
#define notmuch_message_remove_tag NMLIB_REDIRECT(notmuch_message_remove_tag)
#define notmuch_message_freeze NMLIB_REDIRECT(notmuch_message_freeze)
#define notmuch_message_thaw NMLIB_REDIRECT(notmuch_message_thaw)

#endif
