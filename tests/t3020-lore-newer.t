#!/bin/bash
# -c/--check-newer-revisions and --use-newer against a real
# public-inbox-httpd with a Xapian index: v2 of a series sent as a new
# thread is found through the archive's search (POST ?x=m&q=...), named on
# stderr, and taken with --use-newer, carrying over the review of the
# unchanged patch; a series whose title changed is found by its
# change-id line.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 17

# ------------------------------------------------ a series, v1 then v2
R=$TRASH/repo
make_repo "$R" || exit 1
export GIT_AUTHOR_DATE='2024-01-10 12:00:00 +0000'
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
(cd "$R" && git checkout -q -b topic &&
 echo 'line 11' >>file.c && git commit -q -am 'file: add line 11' &&
 echo one >new.txt && git add new.txt && git commit -q -m 'new: add a file' &&
 git tag v1 &&
 git format-patch -q --cover-letter --thread=shallow -o "$TRASH/v1" base &&
 echo two >new.txt && git commit -q -a --amend --no-edit && git tag v2 &&
 git format-patch -q -v2 --cover-letter --thread=shallow -o "$TRASH/v2" base) ||
	exit 1
# git names messages by commit and time: make v2's ids its own
sed -i 's/\.git\.maintainer@/.v2.git.maintainer@/g' "$TRASH"/v2/*.patch
cover_letter "frob: make the file longer" "Two small changes." \
	"$TRASH"/v1/0000-* "$TRASH"/v2/v2-0000-*
mid() { sed -n 's/^Message-ID: <\(.*\)>$/\1/Ip' "$1" | head -1; }
V1_COVER=$(mid "$TRASH"/v1/0000-*)
V1_P1=$(mid "$TRASH"/v1/0001-*)
V1_P2=$(mid "$TRASH"/v1/0002-*)
V2_COVER=$(mid "$TRASH"/v2/v2-0000-*)
check "v2 is a new thread (no In-Reply-To to v1)" \
	eval '! grep -qi "^In-Reply-To:" "$TRASH"/v2/v2-0000-*'

# series B: its title changes in v2, its change-id stays
(cd "$R" && git checkout -q -b bar base &&
 echo bar >bar.txt && git add bar.txt && git commit -q -m 'bar: add bar' &&
 git format-patch -q --cover-letter --thread=shallow -o "$TRASH/b1" base &&
 echo baz >bar.txt && git commit -q -a --amend --no-edit &&
 git format-patch -q -v2 --cover-letter --thread=shallow -o "$TRASH/b2" base) ||
	exit 1
sed -i 's/\.git\.maintainer@/.b1.git.maintainer@/g' "$TRASH"/b1/*.patch
sed -i 's/\.git\.maintainer@/.b2.git.maintainer@/g' "$TRASH"/b2/*.patch
cover_letter "bar: first try" "---\nchange-id: 20240110-bar-5e1f" "$TRASH"/b1/0000-*
cover_letter "bar: a better try" "---\nchange-id: 20240110-bar-5e1f" "$TRASH"/b2/v2-0000-*
B1_P1=$(mid "$TRASH"/b1/0001-*)
B2_COVER=$(mid "$TRASH"/b2/v2-0000-*)

cat "$TRASH"/v1/*.patch "$TRASH"/v2/*.patch "$TRASH"/b1/*.patch \
	"$TRASH"/b2/*.patch >"$TRASH/list.mbox"
cat >>"$TRASH/list.mbox" <<EOF
From rita@reviewer.example.net Thu Jan 11 09:00:00 2024
From: Rita Reviewer <rita@reviewer.example.net>
To: list@example.org
Subject: Re: [PATCH 1/2] file: add line 11
Date: Thu, 11 Jan 2024 09:00:00 +0000
Message-ID: <review-1@reviewer.example.net>
In-Reply-To: <$V1_P1>
References: <$V1_COVER> <$V1_P1>

Reviewed-by: Rita Reviewer <rita@reviewer.example.net>
EOF

pi_serve list "$TRASH/list.mbox" || exit 1
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

applies_as() { am_gives "$R" "$@"; } # applies_as NAME REF

# ----------------------------------------------------------------- -c
lore plain "$V1_P2"
check "without -c: v1, the only revision in its thread" applies_as plain v1
is "$(grep -c '^"POST ' "$PI_ACCESS_LOG")" 0 "and no search"

lore check -c "$V1_P2"
is "$(cat "$TRASH/check.rc")" 0 "-c: exit 0"
check "-c names the newer revision on stderr" grep -qF \
	"lore-am: warning: a newer revision exists: v2, \"[PATCH v2 0/2] frob: make the file longer\" <$V2_COVER>; use --use-newer to take it" \
	"$TRASH/check.err"
check "-c alone still writes v1" applies_as check v1
check "the archive was searched with POST ?x=m&q=s:\"title\" AND f:author" \
	grep -qF '"POST /list/?x=m&q=%28s%3A%22frob%3A%20make%20the%20file%20longer%22%20AND%20f%3A%22maintainer%40example.org%22%29%20AND%20d%3A20240110.. HTTP' \
	"$PI_ACCESS_LOG"

lore newer --use-newer "$V1_P2"
is "$(cat "$TRASH/newer.rc")" 0 "--use-newer: exit 0"
check "--use-newer writes v2" applies_as newer v2
check "the review of the unchanged patch 1 carries over to v2" eval '
	git -C "$R" log -1 --skip=1 --format=%B tnewer |
	grep -qx "Reviewed-by: Rita Reviewer <rita@reviewer.example.net>"'
check "the summary says so" grep -q '^Newer revision found: v2' \
	"$TRASH/newer.err"

lore latest -c "$V2_COVER"
check "-c on the latest revision: says none is newer" \
	grep -qx 'No newer revision than v2 found' "$TRASH/latest.err"
check "and writes it" applies_as latest v2

lore bar -c "$B1_P1"
check "a new title, the same change-id: still found" grep -qF \
	"a newer revision exists: v2, \"[PATCH v2 0/1] bar: a better try\" <$B2_COVER>" \
	"$TRASH/bar.err"
lore bar2 --use-newer "$B1_P1"
check "and taken with --use-newer" eval \
	'(cd "$R" && git checkout -q -f -B tbar base && git am -q "$TRASH/bar2.out" &&
	  test "$(cat bar.txt)" = baz)'

posts=$(grep -c '^.*"POST ' "$PI_ACCESS_LOG")
lore off -c --offline "$V1_P2"
is "$(cat "$TRASH/off.rc") $(grep -c '^.*"POST ' "$PI_ACCESS_LOG")" \
	"0 $posts" "--offline -c: from the cache, no search"
check "and says it did not check" grep -q '^--offline: not checking' \
	"$TRASH/off.err"
done_testing
