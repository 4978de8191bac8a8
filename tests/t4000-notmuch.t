#!/bin/bash
# t4000-notmuch.t - the notmuch database as the thread source (-N): a real
# series made with git format-patch, delivered into a maildir, indexed by a
# real `notmuch new`; the output must be what the mbox gives, and git am
# must turn it into the series' own tree.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 20

gen_thread || exit 1

nm_init "$TRASH/mail"
nm_add "$mbox"
check "notmuch new indexes the maildir" nm_new

# the reference: the same thread read from the mbox
"$LORE_AM" -m "$mbox" "$cover" >"$TRASH/ref.mbx" 2>"$TRASH/ref.err"
is "$?" 0 "the series from the mbox (reference)"

# a mail client pipes the raw message, as stored
"$LORE_AM" -N <"$(nm_file "$p2")" >"$TRASH/out.mbx" 2>"$TRASH/err"
is "$?" 0 "-N with the patch piped in"
same_file "$TRASH/out.mbx" "$TRASH/ref.mbx" "same series as from the mbox"
check "summary names the sources and their counts" \
	grep -qx 'Sources: notmuch 26 messages' "$TRASH/err"

(cd "$G/repo" && git checkout -q -b t base && git am -q "$TRASH/out.mbx") \
	>"$TRASH/am.out" 2>&1
is "$?" 0 "git am applies the output"
check "the tree is the series' own" git -C "$G/repo" diff --quiet v1 t
git -C "$G/repo" log --format=%B base..t |
	grep -E '^(Reviewed|Acked|Tested)-by:' | sort >"$TRASH/got-trailers"
grep -E '^    \+ ' "$TRASH/err" | sed 's/^    + //' | sort >"$TRASH/said"
check "some follow-up trailers were added" test -s "$TRASH/said"
same_file "$TRASH/got-trailers" "$TRASH/said" \
	"the commits carry exactly the trailers the summary lists"

# any member of the thread leads to the same series
bad=0
for id in $ids; do
	"$LORE_AM" -q -N "$id" >"$TRASH/m.mbx" 2>"$TRASH/m.err" &&
		cmp -s "$TRASH/m.mbx" "$TRASH/ref.mbx" ||
		{ bad=$((bad + 1)); echo "# differs from <$id>"; }
done
is "$bad" 0 "every message of the thread ($(echo "$ids" | wc -l)) gives the same series"

# a reply that notmuch has not indexed yet, piped in: found through the ids
# it answers, and its trailer is used
cat >"$TRASH/new-reply.eml" <<EOF
From: New Reviewer <new.reviewer@example.org>
To: Dana Patchwell <dana.patchwell@example.org>
Subject: Re: [PATCH 4/5] just arrived
Date: Mon, 15 Jan 2024 10:00:00 +0000
Message-ID: <fresh-reply@example.org>
In-Reply-To: <$p4>
References: <$cover> <$p4>

Looks right to me.

Reviewed-by: New Reviewer <new.reviewer@example.org>
EOF
"$LORE_AM" -N <"$TRASH/new-reply.eml" >"$TRASH/new.mbx" 2>"$TRASH/new.err"
is "$?" 0 "a piped reply notmuch does not know yet finds its thread"
is "$(grep -c '^Reviewed-by: New Reviewer <new.reviewer@example.org>' "$TRASH/new.mbx")" 1 \
	"its trailer goes to the patch it answers"

"$LORE_AM" -N unknown-id@example.org >"$TRASH/u.mbx" 2>"$TRASH/u.err"
is "$?" 1 "an id notmuch does not know: exit 1"
check "it says so" grep -q 'message <unknown-id@example.org> is not in notmuch' \
	"$TRASH/u.err"
check "and writes nothing" test ! -s "$TRASH/u.mbx"

# gzip-compressed mail files, as notmuch indexes them: lore-am must inflate
# each one (read raw, none would parse as mail)
nm_init "$TRASH/gzmail"
nm_add "$mbox"
gzip "$NM_MAIL"/cur/*
nm_new || exit 1
if ls "$NM_MAIL"/cur | grep -qv '\.gz$'; then
	echo "# setup: a file was left uncompressed"; exit 1
fi
"$LORE_AM" -N "$p2" >"$TRASH/gz.mbx" 2>"$TRASH/gz.err"
is "$?" 0 "-N with every file gzip-compressed"
same_file "$TRASH/gz.mbx" "$TRASH/ref.mbx" "the series from gzip-compressed files"
check "... every message read from its .gz file" eval \
	'grep -qx "Sources: notmuch 26 messages" "$TRASH/gz.err" &&
	! grep -q "could not be read" "$TRASH/gz.err"'

# a .gz file whose deflate data is corrupt (a gzip header without a
# name, then a reserved block type) does not inflate: the message is
# unreadable, which is said, and the patch it held is missing
f4=$(nm_file "$p4")
printf '\037\213\010\000\000\000\000\000\000\003\377\377\377\377' >"$f4"
"$LORE_AM" -N "$p2" >"$TRASH/cut.mbx" 2>"$TRASH/cut.err"
is "$?:$(wc -c <"$TRASH/cut.mbx")" "1:0" \
	"a patch whose .gz file is corrupt: exit 1, nothing written"
check "... one message said unreadable, and 4/5 missing" eval \
	'grep -qx "lore-am: warning: 1 message of the notmuch thread could not be read from any of its files" "$TRASH/cut.err" &&
	grep -q "missing 4/5" "$TRASH/cut.err"'
done_testing
