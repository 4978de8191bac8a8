/*
 * nmlib.h - libnotmuch, loaded with GModule when the notmuch source first
 * opens a database instead of being linked: linking it brings Xapian and
 * the C++ runtime into every run, which doubled what starting lore-am cost
 * (4.5 M instructions to 8.9 M, 5.1 MB resident to 7.7 MB), also for the
 * runs that never ask notmuch.
 *
 * nm.c includes this after <notmuch.h>: each notmuch_*() it calls is then
 * a call through a pointer that nmlib_load() fills in. The library stays
 * loaded until the process exits; there is nothing to free.
 */
#ifndef LORE_NMLIB_H
#define LORE_NMLIB_H

#include <glib.h>
#include <notmuch.h>

/* Every libnotmuch function nm.c calls. */
#define NMLIB_FUNCTIONS(X)                                                     \
	X(notmuch_database_open_with_config)                                   \
	X(notmuch_database_destroy)                                            \
	X(notmuch_database_get_path)                                           \
	X(notmuch_database_status_string)                                      \
	X(notmuch_database_find_message)                                       \
	X(notmuch_status_to_string)                                            \
	X(notmuch_query_create)                                                \
	X(notmuch_query_set_sort)                                              \
	X(notmuch_query_search_messages)                                       \
	X(notmuch_query_destroy)                                               \
	X(notmuch_messages_valid)                                              \
	X(notmuch_messages_get)                                                \
	X(notmuch_messages_move_to_next)                                       \
	X(notmuch_message_get_thread_id)                                       \
	X(notmuch_message_get_filenames)                                       \
	X(notmuch_message_destroy)                                             \
	X(notmuch_filenames_valid)                                             \
	X(notmuch_filenames_get)                                               \
	X(notmuch_filenames_move_to_next)                                      \
	X(notmuch_filenames_destroy)

#define NMLIB_POINTER(f) __typeof__(f) *f;
struct nmlib {
	NMLIB_FUNCTIONS(NMLIB_POINTER)
};
#undef NMLIB_POINTER

extern struct nmlib nmlib;

/*
 * Load libnotmuch (the major version notmuch.h describes) and resolve the
 * functions above, once; later calls return the first answer. FALSE with
 * @err (NM_ERROR_UNAVAILABLE) when it cannot be loaded.
 */
gboolean nmlib_load(GError **err);

#ifndef NMLIB_NO_REDIRECT
#define NMLIB_REDIRECT(f) (*nmlib.f)
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
#endif

#endif
