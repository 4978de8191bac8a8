#!/bin/bash
# t9448-startup-libraries.t - what a run loads: lore-am links GLib,
# GObject, zlib and libc's resolver only. GMime, and with it GIO (libmount,
# libselinux, libblkid), GPGME (libassuan, libgpg-error) and libidn2
# (libunistring), is loaded when a mail needs more than lore-am's own
# reading (a MIME tree of its own, an odd date or address); linked,
# they were 3 500 of the 4 100 symbol bindings made before main() in
# every run, the mail filter's (bench/queue-bench.sh). The dynamic
# loader's LD_DEBUG=files names every object it opens.
. "$(dirname "$0")/lib.sh"

plan 14

# libraries no run of a plain mail opens
never='libgmime|libgio|libgpgme|libmount|libselinux|libblkid|libassuan|libidn2|libunistring'
# the libraries of LD_DEBUG=files's log $1 matching the ERE $2, one line
opened() {
	sed -n 's/.*file=\([^ ]*\) \[0\].*/\1/p' "$1" | sed 's|.*/||' |
		grep -E "$2" |
		sort -u | tr '\n' ' '
}

cd "$TRASH" || exit 1
hello_series lists.example.org p1@example.org p2@example.org \
	r1@example.org >box.mbox
mkdir -p split
git mailsplit -osplit box.mbox >/dev/null
reply=split/0003
git config --global lore-am.queue true

LD_DEBUG=files "$LORE_AM" --version >version.out 2>version.ld
is "$?:$(cat version.out)" "0:lore-am 0.1" "lore-am --version"
is "$(opened version.ld "$never")" "" "... opens no GMime, GIO nor GPGME"

# the filter's run on a plain reply: the series written, its state kept
LD_DEBUG=files "$LORE_AM" --passthrough --status-header -q -o o1 \
	-m box.mbox <"$reply" >mail1 2>plain.ld
is "$?:$(grep '^X-Lore-Am:' mail1)" \
	"0:X-Lore-Am: status=complete; revision=1; patches=2/2; series=20240115_alice_hello_add_greeting; state=complete; reviews=1,0; attestation=none" \
	"a plain reply through --passthrough: the series and its state"
check "... the mail comes out whole" eval \
	'grep -v "^X-Lore-Am:" mail1 | cmp -s - "$reply"'
is "$(opened plain.ld "$never")" "" "... and no GMime, GIO nor GPGME was opened"
grep -q '^Reviewed-by: Rita Reviewer' o1/*.mbx
ok $? "... the series carries the reply's trailer"

# the same reply in base64, in the mailbox too: decoded as GMime
# decodes it (mail/cte.h), without it
{
	sed '/^$/q' "$reply" | sed '$d'
	echo 'Content-Transfer-Encoding: base64'
	echo
	sed '1,/^$/d' "$reply" | base64
} >b64.eml
cat split/0001 split/0002 b64.eml >box64.mbox
rm -rf "$HOME/.local/share/lore-am"
LD_DEBUG=files "$LORE_AM" --passthrough --status-header -q -o o2 \
	-m box64.mbox <b64.eml >mail2 2>b64.ld
is "$?:$(grep '^X-Lore-Am:' mail2 | sed 's/.*state=/state=/')" \
	"0:state=complete; reviews=1,0; attestation=none" \
	"the reply in base64: the same state"
is "$(opened b64.ld "$never")" "" "... and no GMime was opened for it"
same_file o2/*.mbx o1/*.mbx "... and the series is the same"

# a Date with a zone name is GMime's to read: loaded then
sed 's/^Date: .*/Date: Tue, 16 Jan 2024 09:00:00 GMT/' "$reply" >gmt.eml
cat split/0001 split/0002 gmt.eml >boxgmt.mbox
rm -rf "$HOME/.local/share/lore-am"
LD_DEBUG=files "$LORE_AM" --passthrough --status-header -q -o o5 \
	-m boxgmt.mbox <gmt.eml >mail5 2>gmt.ld
is "$?:$(grep '^X-Lore-Am:' mail5 | sed 's/.*state=/state=/')" \
	"0:state=complete; reviews=1,0; attestation=none" \
	"a reply dated in GMT: the same state"
is "$(opened gmt.ld libgmime)" "libgmime-3.0.so.0 " \
	"... GMime was loaded for it"

# GMime missing: a plain mail still goes through; one that needs it is
# refused in one line, with the dynamic loader's status for a missing
# library
rm -rf "$HOME/.local/share/lore-am"
without_lib libgmime-3.0.so.0 "$LORE_AM" --passthrough --status-header -q \
	-o o3 -m box.mbox <"$reply" >mail3 2>nolib.err
rc=$?
if lib_hidden "$rc" 3 libgmime; then
	is "$rc:$(grep '^X-Lore-Am:' mail3 | sed 's/.*state=/state=/')" \
		"0:state=complete; reviews=1,0; attestation=none" \
		"without a loadable libgmime, a plain reply goes through the filter"
	without_lib libgmime-3.0.so.0 "$LORE_AM" -q -o o4 -m boxgmt.mbox \
		p1@example.org <gmt.eml >out4 2>nolib4.err
	rc=$?
	is "$rc:$(wc -l <nolib4.err)" "127:1" \
		"... a run that needs it: status 127 and one line"
	check "... which says what cannot be loaded" grep -q \
		"^lore-am: cannot load libgmime-3.0.so.0: " nolib4.err
fi
