/*
 * gmimelib.h - GMime, loaded on first use (core/dynlib.h) instead of
 * linked. libgmime-3.0 brings GIO (and with it libmount, libblkid,
 * libselinux), GPGME (libassuan, libgpg-error) and libidn2
 * (libunistring): linked, they were loaded and bound before main() in
 * every run, 3 500 of the 4 100 symbol bindings of `lore-am --version`
 * and 80 % of its instructions, while most mails, a mail filter's
 * included, are read without GMime (mail/mimesplit.h, msgbody.c's
 * plain bodies, msgdate.c's plain dates).
 *
 * Every file that calls GMime includes this instead of <gmime/gmime.h>
 * and calls GMime by its own names: each is a call through gmimelib's
 * pointer, made after gmimelib_need(), which loads the library and
 * starts it (g_mime_init()) the first time, so that no call can reach
 * GMime before it is there. GLib and GObject stay linked: GMime's
 * objects are GObjects of the program's own libgobject.
 *
 * GMime is not optional: a run that needs it and cannot load it says
 * "lore-am: cannot load libgmime-3.0.so.0: REASON" and ends with the
 * status the dynamic loader gave before (127: see lore-am(1)), through
 * gmimelib_missing, which the program sets (cli/main.c).
 */
#ifndef LORE_GMIMELIB_H
#define LORE_GMIMELIB_H

#include "core/dynlib.h"

#include <gmime/gmime.h>

/* Every GMime function lore-am calls. (g_mime_encoding_*, GMime's
 * transfer-decoders, are not among them: mail/cte.c decodes by itself;
 * only its unit test and fuzz harness, which link GMime, call them, to
 * hold cte.c to GMime's answers.) */
#define GMIMELIB_FUNCTIONS(X, lib)                                             \
	X(lib, g_mime_init)                                                    \
	X(lib, g_mime_shutdown)                                                \
	X(lib, g_mime_content_type_get_media_subtype)                          \
	X(lib, g_mime_content_type_get_media_type)                             \
	X(lib, g_mime_content_type_get_parameter)                              \
	X(lib, g_mime_content_type_parse)                                      \
	X(lib, g_mime_data_wrapper_write_to_stream)                            \
	X(lib, g_mime_multipart_foreach)                                       \
	X(lib, g_mime_multipart_get_type)                                      \
	X(lib, g_mime_object_get_content_type)                                 \
	X(lib, g_mime_object_get_content_type_parameter)                       \
	X(lib, g_mime_object_get_header)                                       \
	X(lib, g_mime_parser_construct_part)                                   \
	X(lib, g_mime_parser_new_with_stream)                                  \
	X(lib, g_mime_part_get_content)                                        \
	X(lib, g_mime_part_get_content_encoding)                               \
	X(lib, g_mime_part_get_filename)                                       \
	X(lib, g_mime_part_get_type)                                           \
	X(lib, g_mime_stream_mem_get_byte_array)                               \
	X(lib, g_mime_stream_mem_get_type)                                     \
	X(lib, g_mime_stream_mem_new)                                          \
	X(lib, g_mime_stream_mem_new_with_buffer)                              \
	X(lib, g_mime_stream_mem_set_owner)                                    \
	X(lib, g_mime_utils_header_decode_date)                                \
	X(lib, internet_address_get_name)                                      \
	X(lib, internet_address_group_get_members)                             \
	X(lib, internet_address_group_get_type)                                \
	X(lib, internet_address_list_get_address)                              \
	X(lib, internet_address_list_length)                                   \
	X(lib, internet_address_list_parse)                                    \
	X(lib, internet_address_mailbox_get_addr)                              \
	X(lib, internet_address_mailbox_get_type)

struct gmimelib {
	struct dynlib dl;
	GMIMELIB_FUNCTIONS(DYNLIB_POINTER, _)
};

extern struct gmimelib gmimelib;

/*
 * GMime loaded and started, the first time (thread-safe); when it
 * cannot be, gmimelib_missing is called with "cannot load SONAME:
 * REASON" and does not return.
 */
void gmimelib_need(void);

/* Said once GMime cannot be loaded; must not return. NULL (the default,
 * as in the tests): g_error(), which aborts. */
extern void (*gmimelib_missing)(const char *why);

/* g_mime_shutdown() when GMime was started; nothing otherwise. */
void gmimelib_shutdown(void);

/* TRUE once GMime was loaded (the tests and the benchmarks ask). */
gboolean gmimelib_loaded(void);

#define GMIMELIB_CALL(f) (gmimelib_need(), DYNLIB_CALL(gmimelib, f))
#define g_mime_init GMIMELIB_CALL(g_mime_init)
#define g_mime_shutdown GMIMELIB_CALL(g_mime_shutdown)
#define g_mime_content_type_get_media_subtype                                  \
	GMIMELIB_CALL(g_mime_content_type_get_media_subtype)
#define g_mime_content_type_get_media_type                                     \
	GMIMELIB_CALL(g_mime_content_type_get_media_type)
#define g_mime_content_type_get_parameter                                      \
	GMIMELIB_CALL(g_mime_content_type_get_parameter)
#define g_mime_content_type_parse GMIMELIB_CALL(g_mime_content_type_parse)
#define g_mime_data_wrapper_write_to_stream                                    \
	GMIMELIB_CALL(g_mime_data_wrapper_write_to_stream)
#define g_mime_multipart_foreach GMIMELIB_CALL(g_mime_multipart_foreach)
#define g_mime_multipart_get_type GMIMELIB_CALL(g_mime_multipart_get_type)
#define g_mime_object_get_content_type                                         \
	GMIMELIB_CALL(g_mime_object_get_content_type)
#define g_mime_object_get_content_type_parameter                               \
	GMIMELIB_CALL(g_mime_object_get_content_type_parameter)
#define g_mime_object_get_header GMIMELIB_CALL(g_mime_object_get_header)
#define g_mime_parser_construct_part GMIMELIB_CALL(g_mime_parser_construct_part)
#define g_mime_parser_new_with_stream                                          \
	GMIMELIB_CALL(g_mime_parser_new_with_stream)
#define g_mime_part_get_content GMIMELIB_CALL(g_mime_part_get_content)
#define g_mime_part_get_content_encoding                                       \
	GMIMELIB_CALL(g_mime_part_get_content_encoding)
#define g_mime_part_get_filename GMIMELIB_CALL(g_mime_part_get_filename)
#define g_mime_part_get_type GMIMELIB_CALL(g_mime_part_get_type)
#define g_mime_stream_mem_get_byte_array                                       \
	GMIMELIB_CALL(g_mime_stream_mem_get_byte_array)
#define g_mime_stream_mem_get_type GMIMELIB_CALL(g_mime_stream_mem_get_type)
#define g_mime_stream_mem_new GMIMELIB_CALL(g_mime_stream_mem_new)
#define g_mime_stream_mem_new_with_buffer                                      \
	GMIMELIB_CALL(g_mime_stream_mem_new_with_buffer)
#define g_mime_stream_mem_set_owner GMIMELIB_CALL(g_mime_stream_mem_set_owner)
#define g_mime_utils_header_decode_date                                        \
	GMIMELIB_CALL(g_mime_utils_header_decode_date)
#define internet_address_get_name GMIMELIB_CALL(internet_address_get_name)
#define internet_address_group_get_members                                     \
	GMIMELIB_CALL(internet_address_group_get_members)
#define internet_address_group_get_type                                        \
	GMIMELIB_CALL(internet_address_group_get_type)
#define internet_address_list_get_address                                      \
	GMIMELIB_CALL(internet_address_list_get_address)
#define internet_address_list_length GMIMELIB_CALL(internet_address_list_length)
#define internet_address_list_parse GMIMELIB_CALL(internet_address_list_parse)
#define internet_address_mailbox_get_addr                                      \
	GMIMELIB_CALL(internet_address_mailbox_get_addr)
#define internet_address_mailbox_get_type                                      \
	GMIMELIB_CALL(internet_address_mailbox_get_type)

#endif
