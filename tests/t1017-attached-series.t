#!/bin/bash
# t1017-attached-series.t - one mail with several patches attached (how
# some maintainers send a small series) is a series in attachment order:
# git am of lore-am's output makes the commits git am makes of each
# attachment saved alone (git is the oracle), and a reply to the mail
# gives its trailer to every patch, as a cover letter's does. The thread
# comes from a real public-inbox-httpd (no -m) and from a maildir.
#
# | case | what it covers |
# |---|---|
# | x-patch | three `git format-patch` files as 8bit text/x-patch, one with a UTF-8 author and subject (encoded headers, its own charset); the archive, -m, a Message-ID, the reply's trailer |
# | octet | the same files as base64 application/octet-stream `*.patch`, a `[PATCH v2]` mail: `[PATCH v2 i/3]` |
# | bare | diffs without headers as text/x-diff: the mail's author, date and subject |
# | one | one patch and a non-patch attachment: one patch, as before |
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 25

R=$TRASH/repo
make_repo "$R" || exit 1
(cd "$R" && git checkout -q -b topic base &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 echo one >one.c && git add one.c &&
 GIT_AUTHOR_DATE="Mon, 2 Jan 2023 10:00:00 +0100" git commit -q -m "one: add" \
	-m "The first piece." -m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 echo deux >two.c && git add two.c &&
 GIT_AUTHOR_NAME="José Núñez" GIT_AUTHOR_EMAIL=jose@example.com \
 GIT_AUTHOR_DATE="Tue, 3 Jan 2023 11:00:00 +0200" git commit -q -m "two: add the café" \
	-m "Ça marche." -m "Signed-off-by: José Núñez <jose@example.com>" &&
 echo three >three.c && git add three.c &&
 GIT_AUTHOR_DATE="Wed, 4 Jan 2023 12:00:00 +0000" git commit -q -m "three: add" \
	-m "The third piece." -m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git format-patch -q -o "$TRASH/fp" base..topic &&
 git diff base topic~2 >"$TRASH/d1.diff" && git diff topic~2 topic~1 >"$TRASH/d2.diff" &&
 git diff topic~1 topic >"$TRASH/d3.diff") || exit 1

# attmail OUT ID SUBJECT TYPE CTE FILE...: a mail with a text part and FILEs
# attached as TYPE in CTE (8bit or base64), in order
attmail() {
	_o=$1 _id=$2 _s=$3 _t=$4 _e=$5; shift 5
	{ echo "From: Lin Maintainer <lin@example.org>"
	  echo "Date: Thu, 5 Jan 2023 09:00:00 +0000"
	  echo "Subject: $_s"; echo "Message-Id: <$_id>"; echo "MIME-Version: 1.0"
	  echo 'Content-Type: multipart/mixed; boundary="b0"'; echo
	  echo "--b0"; echo "Content-Type: text/plain; charset=UTF-8"; echo
	  echo "Hi,"; echo; echo "three small fixes attached."; echo
	  for f; do
		echo "--b0"; echo "Content-Type: $_t; name=\"${f##*/}\""
		echo "Content-Disposition: attachment; filename=\"${f##*/}\""
		echo "Content-Transfer-Encoding: $_e"; echo
		if [ "$_e" = base64 ]; then base64 "$f"; else cat "$f"; fi
		echo
	  done
	  echo "--b0--"; } >"$_o"
}
attmail "$TRASH/xpatch" xpatch@example.org "three fixes" text/x-patch 8bit "$TRASH"/fp/*.patch
attmail "$TRASH/octet" octet@example.org "[PATCH v2] three fixes" \
	application/octet-stream base64 "$TRASH"/fp/*.patch
attmail "$TRASH/bare" bare@example.org "[PATCH] three fixes" text/x-diff 8bit \
	"$TRASH"/d1.diff "$TRASH"/d2.diff "$TRASH"/d3.diff
printf 'CONFIG_ONE=y\n' >"$TRASH/config.txt"
attmail "$TRASH/one" one@example.org "[PATCH] one: add" text/x-patch 8bit "$TRASH"/fp/0001-*.patch
sed -i 's|^--b0--$|--b0\nContent-Type: text/plain; name="config.txt"\nContent-Disposition: attachment; filename="config.txt"\n\nCONFIG_ONE=y\n--b0--|' "$TRASH/one"
reply "$TRASH/tested" "$TRASH/xpatch" "Tess Ter <tess@example.net>" \
	"Tested-by: Tess Ter <tess@example.net>"

# the maildir, and the archive (fed as mboxrd: the attachments hold "From " lines)
mkdir -p "$TRASH/md/cur" "$TRASH/md/new" "$TRASH/md/tmp"
n=0
for f in xpatch octet bare one tested; do
	n=$((n + 1)); cp "$TRASH/$f" "$TRASH/md/cur/$n:2,S"
	{ echo "From mbox@z Thu Jan  1 00:00:00 1970"
	  sed 's/^\(>*From \)/>\1/' "$TRASH/$f"; echo; } >>"$TRASH/all.mbox"
done
PI_MBOXRD=1 pi_serve test "$TRASH/all.mbox" || exit 1
export NOTMUCH_CONFIG=$TRASH/no-notmuch-config

# commits DIR: the fields of each commit since base, oldest first
commits() {
	git -C "$1" log --reverse --date=raw --format='%an <%ae> %ad%n%T%n%B%n--' base..HEAD
}

# am_into DIR FILE...: a clone of the repository at base, FILEs git am'ed
am_into() {
	_d=$1; shift
	rm -rf "$_d" && git clone -q "$R" "$_d" &&
		git -C "$_d" checkout -q base -b am && git -C "$_d" am -q "$@"
}

# the oracle: each attachment saved alone, git am'ed in turn; with the
# reply's trailer where git interpret-trailers puts it
am_into "$TRASH/direct" "$TRASH"/fp/*.patch || exit 1
for c in $(git -C "$TRASH/direct" rev-list --reverse base..HEAD); do
	git -C "$TRASH/direct" log -1 --date=raw --format='%an <%ae> %ad%n%T' "$c"
	git -C "$TRASH/direct" log -1 --format=%B "$c" |
		git interpret-trailers --trailer "Tested-by: Tess Ter <tess@example.net>"
	echo --
done >"$TRASH/want-tested"
commits "$TRASH/direct" >"$TRASH/want"

# ------------------------------------------------------------ x-patch
"$LORE_AM" <"$TRASH/xpatch" >"$TRASH/x.out" 2>"$TRASH/x.err"
is "$?" 0 "text/x-patch attachments, piped, no -m: exit 0"
check "the thread came from the archive" grep -q '^Sources: lore ' "$TRASH/x.err"
is "$(grep '^Subject: ' "$TRASH/x.out" | tr '\n' '|')" \
	"Subject: [PATCH 1/3] one: add|Subject: [PATCH 2/3] two: add the café|Subject: [PATCH 3/3] three: add|" \
	"three patches, numbered in attachment order, with their own titles"
am_into "$TRASH/lore" "$TRASH/x.out" >/dev/null 2>&1
is "$?" 0 "git am applies the output"
commits "$TRASH/lore" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want-tested" \
	"the commits of each attachment applied alone, the reply's Tested-by on every one"
check "the tree is the series'" git -C "$TRASH/lore" diff --quiet origin/topic HEAD

"$LORE_AM" -m "$TRASH/md" <"$TRASH/xpatch" >"$TRASH/xm.out" 2>"$TRASH/xm.err"
is "$?" 0 "-m MAILDIR: exit 0"
same_file "$TRASH/xm.out" "$TRASH/x.out" "-m MAILDIR: the same bytes as the archive's"
check "-m MAILDIR: no NOTE of an incomplete series" \
	sh -c "! grep -q 'incomplete' '$TRASH/xm.err'"
"$LORE_AM" -m "$TRASH/md" xpatch@example.org >"$TRASH/xid.out" 2>/dev/null
is "$?" 0 "named by its Message-ID: exit 0"
same_file "$TRASH/xid.out" "$TRASH/x.out" "named by its Message-ID: the same bytes"
"$LORE_AM" -m "$TRASH/md" <"$TRASH/tested" >"$TRASH/xt.out" 2>/dev/null
same_file "$TRASH/xt.out" "$TRASH/x.out" "the reply piped in: the same series"

# ------------------------------------------------------------ octet
"$LORE_AM" -m "$TRASH/md" <"$TRASH/octet" >"$TRASH/o.out" 2>"$TRASH/o.err"
is "$?" 0 "base64 application/octet-stream *.patch: exit 0"
is "$(grep -c '^Subject: \[PATCH v2 [123]/3\]' "$TRASH/o.out")" 3 \
	"the mail's [PATCH v2] numbers them v2 i/3"
am_into "$TRASH/lore" "$TRASH/o.out" >/dev/null 2>&1
is "$?" 0 "git am applies the output"
commits "$TRASH/lore" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "the commits of each attachment applied alone"
"$LORE_AM" <"$TRASH/octet" >"$TRASH/oa.out" 2>/dev/null
same_file "$TRASH/oa.out" "$TRASH/o.out" "from the archive: the same bytes"

# ------------------------------------------------------------ bare diffs
"$LORE_AM" -m "$TRASH/md" <"$TRASH/bare" >"$TRASH/b.out" 2>"$TRASH/b.err"
is "$?" 0 "three bare diffs as text/x-diff: exit 0"
is "$(grep -c '^Subject: \[PATCH [123]/3\] three fixes$' "$TRASH/b.out")" 3 \
	"each takes the mail's subject, numbered"
am_into "$TRASH/lore" "$TRASH/b.out" >/dev/null 2>&1
is "$?" 0 "git am applies the output"
is "$(git -C "$TRASH/lore" log --format='%an <%ae> %ad' base..HEAD | sort -u)" \
	"Lin Maintainer <lin@example.org> Thu Jan 5 09:00:00 2023 +0000" \
	"each takes the mail's author and date"
check "the tree is the series'" git -C "$TRASH/lore" diff --quiet origin/topic HEAD
git -C "$TRASH/lore" diff --quiet origin/topic~1 HEAD~1
ok $? "and each commit is one attachment, in order"

# ------------------------------------------------------------ one patch
"$LORE_AM" -m "$TRASH/md" <"$TRASH/one" >"$TRASH/one.out" 2>/dev/null
is "$?" 0 "one patch and a non-patch attachment: exit 0"
is "$(grep -c '^Subject: \[PATCH\] one: add$' "$TRASH/one.out")" 1 \
	"one patch, as git am takes the mail"

done_testing
