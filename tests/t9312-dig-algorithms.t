#!/bin/bash
# lore-am dig as b4 dig (0.15) digs, against a real public-inbox-httpd
# with a Xapian index: the commit's patch-id under each diff algorithm
# (a patch sent with diff.algorithm=histogram, applied and reworded, is
# found by its histogram patch-id alone); -a finds the other revisions by
# the series' change-id (b4 prep's cover letter line, public-inbox's nq:
# search) even when their titles differ; a change-id that is not one b4
# writes (quotes, backslashes, 5000 bytes) is never searched.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 20
# LeakSanitizer cannot run under ptrace (make SANITIZE=1 check): the runs
# counted under strace below
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

cd "$TRASH" || exit 1
make_repo repo || exit 1
export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com

# lines whose myers and histogram diffs differ (and so their patch-ids)
lines() { printf '%b\n' "$@" >shuffle.c; }
(cd repo && git checkout -q -b hstart base &&
 lines '\ty--;' '\ty--;' '/* c */' '}' '\treturn 0;' '/* c */' '\ty--;' '' \
	'int f(void)' '}' '\tx++;' '}' '\ty--;' '}' '/* c */' '\tx++;' '}' \
	'int f(void)' 'int f(void)' '/* c */' '\tx++;' '\tx++;' '}' \
	'int f(void)' '}' &&
 git add shuffle.c && git commit -q -m "shuffle: the lines before" &&
 git checkout -q -b hist hstart &&
 lines '\ty--;' '/* c */' '}' '\treturn 0;' '/* c */' '\ty--;' '' \
	'int f(void)' '}' '\tx++;' '}' '\ty--;' '}' '/* c */' '\tx++;' '}' \
	'int f(void)' 'int f(void)' '/* c */' '\tx++;' 'int f(void)' '}' \
	'int f(void)' '' '}' &&
 GIT_AUTHOR_DATE="2024-01-10 10:00:00 +0000" git commit -q -a \
	-m "shuffle: move the lines" &&
 git -c diff.algorithm=histogram format-patch -q --thread -o "$TRASH/hist" \
	hstart..hist) || exit 1

# b4 prep's cover letter line, before the signature
change_id() {
	ID=$1 perl -0pi -e 's/\n-- \n/\nchange-id: $ENV{ID}\n\nBest regards,\n-- \n/' "$2"
}
# series NAME REV DAY CHANGE-ID TITLE1 TITLE2 COVER-TITLE: a two-patch
# revision sent on 2024-MM-DD (DAY), its cover with the change-id
series() {
	(cd repo && git checkout -q -B "$1-v$2" base &&
	 export GIT_AUTHOR_DATE="$3 10:00:00 +0000"
	 printf '%s one, v%s\n' "$1" "$2" >"$1-1.c" && git add "$1-1.c" &&
	 git commit -q -m "$5" &&
	 printf '%s two, v%s\n' "$1" "$2" >"$1-2.c" && git add "$1-2.c" &&
	 git commit -q -m "$6" &&
	 git format-patch -q --thread=shallow --cover-letter -v "$2" \
		-o "$TRASH/$1-v$2" base..HEAD) || return 1
	cover_letter "$7" "The $1, revision $2." "$TRASH/$1-v$2"/*0000*
	[ -n "$4" ] && change_id "$4" "$TRASH/$1-v$2"/*0000*
	_d=$(date -u -d "$3 10:00" '+%a, %d %b %Y %H:%M:%S +0000')
	sed -i "s/^Date: .*/Date: $_d/" "$TRASH/$1-v$2"/*0000*
	# format-patch names a cover letter after the second it was made
	sleep 1
}
CID=20240105-widget-0123456789ab
series widget 1 2024-01-05 "$CID" "widget: add the frame" \
	"widget: add the knob" "widget: a first try" || exit 1
series widget 2 2024-01-08 "$CID" "widget: add a frame of steel" \
	"widget: add two knobs" "widget: the second try" || exit 1
series widget 3 2024-03-01 "$CID" "widget: a frame, later" \
	"widget: knobs, later" "widget: after it was applied" || exit 1
# another series whose change-id only starts with the widget's: the
# phrase search finds it too, and it is not one of them (a v4, which the
# series stage would list)
series gadget 4 2024-01-06 "$CID-extra" "gadget: add it" \
	"gadget: use it" "gadget: the gadget" || exit 1
# change-ids no b4 writes: a quote, a parenthesis and a backslash; 5000
# bytes. The revisions share titles: found by them.
series bolt 1 2024-01-05 "" "bolt: add the bolt" "bolt: tighten it" \
	"bolt: bolts" || exit 1
series bolt 2 2024-01-06 '2024"0105) OR s:x \\\\ "' "bolt: add the bolt" \
	"bolt: tighten it" "bolt: bolts" || exit 1
series nut 1 2024-01-05 "" "nut: add the nut" "nut: turn it" "nut: nuts" ||
	exit 1
series nut 2 2024-01-06 "$(printf '%05000d' 7)" "nut: add the nut" \
	"nut: turn it" "nut: nuts" || exit 1
to_mbox all.mbox hist/*.patch widget-v*/*.patch gadget-v4/*.patch \
	bolt-v*/*.patch nut-v*/*.patch
pi_serve linux-foo all.mbox || exit 1
HIST=$(msgid_of hist/0001-*.patch)
W1C=$(msgid_of widget-v1/v1-0000-cover-letter.patch)
link() { echo "$PI_URL/linux-foo/$1/"; }

# the histogram patch, applied and reworded: neither its myers patch-id
# nor its title finds it
git clone -q repo maint && git -C maint checkout -q -b h origin/hstart &&
	git -C maint am -q "$TRASH"/hist/*.patch &&
	git -C maint commit -q --amend -m "shuffle: reordered by the maintainer" ||
	exit 1
pid() { git -C maint show --format=email --diff-algorithm="$1" HEAD |
	git patch-id --stable | cut -d' ' -f1; }
check "the test's patch: its myers and histogram patch-ids differ" \
	test "$(pid myers)" != "$(pid histogram)"
(cd maint && lore hist dig HEAD)
is "$(cat hist.rc) $(cat hist.out)" "0 $(link "$HIST")" \
	"dig on a histogram patch reworded: exit 0, its link"
is "$(cat hist.err)" "---
[PATCH] shuffle: move the lines" "... stderr: --- and the subject sent"
(cd maint && lore hista dig -a HEAD)
check "... -a: the patch marked as found by its patch-id" \
	grep -qxF "      => patch 1/1: the same patch-id" hista.out
# the user's diff.algorithm does not change the patches dig makes
git -C maint config diff.algorithm patience
(cd maint && lore histc dig HEAD)
git -C maint config --unset diff.algorithm
check "... the same under the user's diff.algorithm=patience" \
	eval '[ -s histc.out ] && cmp -s histc.out hist.out'
# nor do colours the user forces on (color.ui=always: a coloured patch
# has no patch-id), an external diff or a textconv driver
git -C maint config color.ui always
git -C maint config diff.external /bin/false
(cd maint && lore histcol dig HEAD)
git -C maint config --unset color.ui
git -C maint config --unset diff.external
check "... and under color.ui=always and a diff.external" \
	eval '[ -s histcol.out ] && cmp -s histcol.out hist.out'

# public-inbox's nq: search holds the change-id as a phrase
q=$(printf 'nq:"change-id:%s"' "$CID" | perl -pe 's/([^A-Za-z0-9_.~-])/sprintf("%%%02X", ord($1))/ge')
curl -q -s -X POST "$PI_URL/linux-foo/?x=m&q=$q" | gzip -dc >nq.mbox
check "the archive's nq:\"change-id:ID\" finds the widget's covers" \
	grep -qiF "Message-ID: <$W1C>" nq.mbox

# the widget's v2 applied; its revisions have other titles
git -C maint checkout -q -b w base &&
	git -C maint am -q "$TRASH"/widget-v2/v2-000[12]-*.patch || exit 1
(cd maint && lore wid dig -a HEAD)
is "$(cat wid.rc) $(sed -n 's/^  \(v[0-9]\): .*/\1/p' wid.out | tr '\n' ,)" \
	"0 v1,v2," "-a by the change-id: exit 0; v1 and v2 (not v3, sent after)"
check "... v1 by its cover letter, whose titles differ" \
	grep -qxF "  v1: [PATCH v1 0/2] widget: a first try" wid.out
check "... v2 marked by its patch-id" \
	grep -qxF "      => patch 2/2: the same patch-id" wid.out
check "... not the gadget, whose change-id only starts the same" \
	eval '! grep -q gadget wid.out'
(cd maint && lore wid1 dig HEAD)
is "$(cat wid1.out)" "$(link "$(msgid_of widget-v2/v2-0002-*.patch)")" \
	"... without -a: v2's patch 2 alone"

# hostile change-ids: not searched, the revisions found by their titles
: >"$PI_ACCESS_LOG"
git -C maint checkout -q -b b base &&
	git -C maint am -q "$TRASH"/bolt-v2/v2-000[12]-*.patch || exit 1
(cd maint && lore bolt dig -a HEAD)
is "$(cat bolt.rc) $(sed -n 's/^  \(v[0-9]\): .*/\1/p' bolt.out | tr '\n' ,)" \
	"0 v1,v2," "a change-id with a quote and a backslash: exit 0, v1 and v2"
check "... noted as not searched" grep -qF \
	"NOTE: the series' change-id is not one b4 writes: not searched" bolt.err
git -C maint checkout -q -b n base &&
	git -C maint am -q "$TRASH"/nut-v2/v2-000[12]-*.patch || exit 1
(cd maint && lore nut dig -a HEAD)
is "$(cat nut.rc) $(sed -n 's/^  \(v[0-9]\): .*/\1/p' nut.out | tr '\n' ,)" \
	"0 v1,v2," "a change-id of 5000 bytes: exit 0, v1 and v2"
check "... noted as not searched" grep -qF \
	"NOTE: the series' change-id is not one b4 writes" nut.err
check "... neither asked of the archive" eval \
	'! grep -qi "change-id\|nq%3a\|nq:" "$PI_ACCESS_LOG"'
check "... and no request longer than 1000 bytes" eval \
	'! awk "length > 1000" "$PI_ACCESS_LOG" | grep -q .'

# the work bounded: a git show per algorithm until one finds it, a git
# patch-id only for a patch not made already (strace counts the runs)
if command -v strace >/dev/null; then
	runs() { # NAME: "SHOWS PATCH-IDS" that lore-am started
		echo "$(grep -c 'execve(.*"show", ".*--format=email"' "$1.st")" \
			"$(grep -c 'execve(.*"patch-id", "--stable"' "$1.st")"
	}
	git -C maint checkout -q h &&
	(cd maint && strace -f -qq -e trace=execve -o "$TRASH/sh.st" \
		"$LORE_AM" dig HEAD >/dev/null 2>&1)
	is "$(runs sh)" "2 2" \
		"the histogram patch: myers then histogram made, each patch-id'd, no more"
	git -C maint checkout -q -b none base && printf 'new\n' >maint/new.c &&
		git -C maint add new.c && git -C maint commit -q -m "new: nobody sent it"
	(cd maint && strace -f -qq -e trace=execve -o "$TRASH/sn.st" \
		"$LORE_AM" dig HEAD >/dev/null 2>&1)
	is "$(runs sn)" "4 1" \
		"a commit nobody sent: four patches made, the same bytes patch-id'd once"
else
	skip "strace not installed"; skip "strace not installed"
fi
