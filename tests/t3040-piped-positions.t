#!/bin/bash
# t3040-piped-positions.t - a piped message never stands in for a source:
# whatever its place in the thread (a single [PATCH] at the root of its
# own thread, the cover letter, patch n/m, a review, a reply to a review),
# the thread comes from a source and the series gets the reviewers'
# trailers. Asked of a real public-inbox-httpd (no -m, as the README's
# first example and the keys' defaults run lore-am; -L; --source lore), a
# real notmuch database (-N) and an mbox (-m), which must all give the
# same bytes; and through lore-am-pipe with its default arguments.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-nm.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 49

# ------------------------------------------------------------ test data
# a 3-patch series with a cover letter; a review of patch 2 and a reply to
# that review, each with a trailer; a Tested-by for the whole series; and
# a single patch, the root of a thread of its own, with one review
R=$TRASH/repo
series_repo "$R" 3 || exit 1
fmt "$R" "$TRASH/s" --cover-letter || exit 1
(cd "$R" && git checkout -q -b single base && echo one >single.c &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 git add single.c && git commit -q -m "single: add one" \
	-m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git format-patch -q --thread -1 -o "$TRASH/one") || exit 1
cover=$TRASH/s/0000-cover-letter.patch
p2=$(ls "$TRASH"/s/0002-*.patch)
single=$(ls "$TRASH"/one/0001-*.patch)
reply "$TRASH/review" "$p2" "Rae Viewer <rae@example.net>" \
	"> piece 2

Reviewed-by: Rae Viewer <rae@example.net>"
reply "$TRASH/review2" "$TRASH/review" "Tess Ter <tess@example.net>" \
	"> > piece 2

Tested-by: Tess Ter <tess@example.net>"
reply "$TRASH/tested" "$cover" "Cary Over <cary@example.net>" \
	"Acked-by: Cary Over <cary@example.net>"
reply "$TRASH/single-review" "$single" "Rae Viewer <rae@example.net>" \
	"> one

Reviewed-by: Rae Viewer <rae@example.net>"
to_mbox "$TRASH/all.mbox" "$TRASH"/s/*.patch "$TRASH/review" \
	"$TRASH/review2" "$TRASH/tested" "$single" "$TRASH/single-review"

pi_serve test "$TRASH/all.mbox" || exit 1

# no notmuch set up for the archive runs: auto asks notmuch first
export NOTMUCH_CONFIG=$TRASH/no-notmuch-config

# run NAME FILE ARGS...: lore-am with FILE piped in, as a mail client does
run() { lore_in "$@"; }

# ------------------------------------------ 1. the archive, by default
run one-root "$single"
is "$(cat "$TRASH/one-root.rc")" 0 "a single [PATCH] at the root, no -m: exit 0"
check "its review's trailer is added (the thread came from the archive)" \
	grep -qx 'Reviewed-by: Rae Viewer <rae@example.net>' "$TRASH/one-root.out"
check "the summary names the archive" \
	grep -q '^Sources: lore 2 messages$' "$TRASH/one-root.err"
apply_into "$TRASH/one-root.out" "$TRASH/am-one" "$R" >/dev/null 2>&1
is "$?" 0 "git am applies it"
is "$(git -C "$TRASH/am-one" log -1 --format=%s)" "single: add one" \
	"the commit is the patch's"

run one-review "$TRASH/single-review"
is "$(cat "$TRASH/one-review.rc")" 0 "its review piped in: exit 0"
same_file "$TRASH/one-review.out" "$TRASH/one-root.out" \
	"the same series from the review"

run one-L "$single" -L "$PI_URL/test/%s"
same_file "$TRASH/one-L.out" "$TRASH/one-root.out" "-L URL: the same series"
is "$(cat "$TRASH/one-L.rc")" 0 "-L URL: exit 0"
run one-lore "$single" --source lore
same_file "$TRASH/one-lore.out" "$TRASH/one-root.out" \
	"--source lore: the same series"
is "$(cat "$TRASH/one-lore.rc")" 0 "--source lore: exit 0"

# every place in the series thread gives the same series
run s-cover "$cover"
is "$(cat "$TRASH/s-cover.rc")" 0 "the cover letter piped in: exit 0"
is "$(grep -c '^Subject: \[PATCH' "$TRASH/s-cover.out")" 3 "three patches"
is "$(grep -c '^Acked-by: Cary Over <cary@example.net>$' "$TRASH/s-cover.out")" 3 \
	"the cover letter's trailer goes to every patch"
is "$(grep -c '^Reviewed-by: Rae Viewer <rae@example.net>$' "$TRASH/s-cover.out")" 1 \
	"the review's trailer goes to its patch"
is "$(grep -c '^Tested-by: Tess Ter <tess@example.net>$' "$TRASH/s-cover.out")" 1 \
	"the reply to the review gives its trailer to the same patch"
apply_into "$TRASH/s-cover.out" "$TRASH/am-s" "$R" >/dev/null 2>&1
is "$?" 0 "git am applies the series"
check "the tree is the series' own" git -C "$TRASH/am-s" diff --quiet origin/topic HEAD
for pos in p2 review review2 tested; do
	case $pos in
	p2) f=$p2 ;;
	*) f=$TRASH/$pos ;;
	esac
	run "s-$pos" "$f"
	is "$(cat "$TRASH/s-$pos.rc")" 0 "$pos piped in: exit 0"
	same_file "$TRASH/s-$pos.out" "$TRASH/s-cover.out" \
		"$pos piped in: the same series as from the cover letter"
done

# ------------------------------------------ 2. notmuch, -N
nm_maildir "$TRASH/mail" "$TRASH/all.mbox" || exit 1
: >"$PI_ACCESS_LOG"
run nm-one "$single" -N
is "$(cat "$TRASH/nm-one.rc")" 0 "-N, the single patch: exit 0"
same_file "$TRASH/nm-one.out" "$TRASH/one-root.out" \
	"-N: the same bytes as the archive's"
for pos in cover p2 review2; do
	case $pos in
	p2) f=$p2 ;;
	cover) f=$cover ;;
	*) f=$TRASH/$pos ;;
	esac
	run "nm-$pos" "$f" -N
	same_file "$TRASH/nm-$pos.out" "$TRASH/s-cover.out" \
		"-N, $pos piped in: the same bytes as the archive's"
done
# auto finds notmuch set up and complete: the archive is not asked
run nm-auto "$single"
same_file "$TRASH/nm-auto.out" "$TRASH/one-root.out" \
	"auto with notmuch set up: the same bytes"
check "auto: notmuch answered" grep -q '^Sources: notmuch 2 messages$' \
	"$TRASH/nm-auto.err"
is "$(pi_requests)" 0 "notmuch had it all: no request to the archive"
export NOTMUCH_CONFIG=$TRASH/no-notmuch-config

# ------------------------------------------ 3. an mbox, -m
for pos in one-root one-review s-cover s-p2 s-review s-review2 s-tested; do
	case $pos in
	one-root) f=$single ;;
	one-review) f=$TRASH/single-review ;;
	s-cover) f=$cover ;;
	s-p2) f=$p2 ;;
	s-*) f=$TRASH/${pos#s-} ;;
	esac
	case $pos in
	one-*) want=$TRASH/one-root.out ;;
	*) want=$TRASH/s-cover.out ;;
	esac
	run "m-$pos" "$f" -m "$TRASH/all.mbox"
	same_file "$TRASH/m-$pos.out" "$want" \
		"-m, $pos piped in: the same bytes as the archive's"
done

# a mailbox without the thread, the archive named: the archive completes it
to_mbox "$TRASH/unrelated.mbox" "$TRASH/one/0001-single-add-one.patch"
run m-L "$cover" -m "$TRASH/unrelated.mbox" -L "$PI_URL/test/%s"
same_file "$TRASH/m-L.out" "$TRASH/s-cover.out" \
	"-m without the thread, -L: the archive gives the series"

# the maildir notmuch indexes, as -m: the summary calls it a maildir
run m-dir "$single" -m "$TRASH/mail"
check "-m MAILDIR: 'Sources: maildir 2 messages'" \
	grep -qx 'Sources: maildir 2 messages' "$TRASH/m-dir.err"

# ------------------------------------------ 4. the keys' command, defaults
LORE_AM=$LORE_AM "$SRC_DIR/hooks/lore-am-pipe" save <"$single" \
	>"$TRASH/key.out" 2>"$TRASH/key.err"
is "$?" 0 "lore-am-pipe save, default arguments: exit 0"
saved=$(ls "$HOME"/patches/*.mbx 2>/dev/null | head -n 1)
check "it saved an mbox in ~/patches" test -f "$saved"
same_file "$saved" "$TRASH/one-root.out" \
	"the saved mbox is the series from the archive"
rm -rf "$HOME/patches"
LORE_AM=$LORE_AM "$SRC_DIR/hooks/lore-am-pipe" save <"$TRASH/review2" \
	>"$TRASH/key2.out" 2>"$TRASH/key2.err"
is "$?" 0 "lore-am-pipe save on a reply to a review: exit 0"
check "the series' mbox is saved" test "$(ls "$HOME"/patches/*.mbx | wc -l)" = 1
same_file "$(ls "$HOME"/patches/*.mbx | head -n 1)" "$TRASH/s-cover.out" \
	"the saved mbox is the whole series"

done_testing
