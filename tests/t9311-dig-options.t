#!/bin/bash
# lore-am dig's b4 options, against a real public-inbox-httpd with a
# Xapian index: the best match alone (b4 dig's default), -a (every
# revision), -w (who the patch went to), -m FILE (its thread saved), -C
# (no cache), -c COMMIT; a Link: trailer preferred over a subject match;
# the searches bounded by the commit's date (a later resend with the same
# patch-id is not the match).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 35

cd "$TRASH" || exit 1
make_repo repo || exit 1
# revision R of a three-patch series on branch vR, sent a day apart as a
# thread of its own; v2 with a Reply-To, both with To and Cc that repeat
# the sender and each other (another case, another name)
for r in 1 2 3; do
	extra=()
	[ "$r" = 2 ] && extra=(--add-header="Reply-To: Pat Replies <pat-replies@example.com>"
		--cc="Pat Contributor <PAT@example.com>")
	dig_revision "$r" --to="Foo List <linux-foo@example.org>" \
		--cc="Rev Iewer <rev@example.org>" --cc="rev@EXAMPLE.org" \
		--cc='"Last, First" <first@example.org>' "${extra[@]}" || exit 1
done
# v1 sent again two months later as v4, the same patches (the same
# patch-ids): a resend after the commit was applied
(cd repo && git checkout -q v1 &&
 git format-patch -q --thread=shallow --cover-letter -v 4 -o "$TRASH/v4" base..HEAD) || exit 1
cover_letter "part: the feature" "The feature, sent again." "$TRASH/v4"/*0000*
sed -i "s/^Date: .*/Date: Fri, 01 Mar 2024 10:00:00 +0000/" "$TRASH"/v4/*
# a patch whose Cc is hostile: an escape sequence in a name, a bidi
# override in an encoded one, 300 more addresses
(cd repo && git checkout -q -b crowd base && printf 'crowd\n' >crowd.c &&
 git add crowd.c && GIT_AUTHOR_DATE="2024-01-05 10:00:00 +0000" \
 git commit -q -m "crowd: a patch sent to a crowd" &&
 git format-patch -q -o "$TRASH/crowd" base..HEAD) || exit 1
perl -i -pe 'if (/^Subject:/) { print "Cc: \"Evil\e[2J Name\" <evil\@example.org>, " .
	"=?UTF-8?Q?Evil=E2=80=AE_Bidi?= <bidi\@example.org>, " .
	join(", ", map { "c$_\@example.org" } 1..300) . "\n" }' "$TRASH"/crowd/*.patch
to_mbox all.mbox v1/*.patch v2/*.patch v3/*.patch v4/*.patch crowd/*.patch
pi_serve linux-foo all.mbox || exit 1
V1P1=$(msgid_of v1/v1-0001-part-add-piece-1.patch)
V2P1=$(msgid_of v2/v2-0001-part-add-piece-1.patch)
V2P2=$(msgid_of v2/v2-0002-part-add-piece-2.patch)
V2P3=$(msgid_of v2/v2-0003-part-add-piece-3.patch)
V2C=$(msgid_of v2/v2-0000-cover-letter.patch)
V3P1=$(msgid_of v3/v3-0001-part-add-piece-1.patch)
V4P1=$(msgid_of v4/v4-0001-part-add-piece-1.patch)
link() { echo "$PI_URL/linux-foo/$1/"; }

git clone -q repo maint && git -C maint checkout -q -b work base &&
	git -C maint am -q "$TRASH"/v2/v2-000[123]-*.patch || exit 1

# b4 dig's default: the one best match, its subject on stderr, its link
# on stdout
(cd maint && lore best dig HEAD~1)
is "$(cat best.rc) $(cat best.out)" "0 $(link "$V2P2")" \
	"dig on v2's patch 2: exit 0, stdout the link to that patch alone"
is "$(cat best.err)" "---
[PATCH v2 2/3] part: add piece 2" "... stderr: --- and the patch's subject"
(cd maint && lore quiet -q dig HEAD~1)
check "... -q: the link only" eval '[ ! -s quiet.err ] &&
	[ "$(cat quiet.out)" = "$(link "$V2P2")" ]'

# -c COMMIT, as b4 takes it; both ways is one too many
(cd maint && lore dashc dig -c HEAD~1)
is "$(cat dashc.out)" "$(link "$V2P2")" "-c COMMIT: the same answer"
(cd maint && lore dashc2 dig --commitish=HEAD~1 -q)
check "--commitish=COMMIT too" cmp -s dashc2.out best.out
(cd maint && lore twice dig -c HEAD~1 HEAD)
fails twice 2 "dig takes one commit: lore-am dig COMMIT \(or -c COMMIT\)" \
	"-c COMMIT and COMMIT: exit 2, one line"

# b4's linkmask (lore-am.linkmask), b4's -c NAME=VALUE before the word
(cd maint && lore mask -c "b4.linkmask=https://patch.msgid.link/%s" dig HEAD~1)
is "$(cat mask.rc) $(cat mask.out)" "0 https://patch.msgid.link/$V2P2" \
	"b4.linkmask: the link in its form"

# -a: every revision, b4's three lines each, the match marked
(cd maint && lore all dig -a HEAD~1)
is "$(cat all.rc) $(sed -n 's/^  \(v[0-9]\): .*/\1/p' all.out | tr '\n' ,)" "0 v1,v2,v3," \
	"-a: exit 0; v1, v2 and v3 (not v4, sent after the commit's day)"
check "... v2: its cover letter's subject, date and sender, the link to its patch 2" \
	grep -qxF "  v2: [PATCH v2 0/3] part: the feature
      Date: 2024-01-02, From: Pat Contributor <pat@example.com>
      $(link "$V2P2")" all.out
is "$(grep '^      => patch' all.out | tr '\n' ,)" \
	"      => patch 2/3: the same subject, another diff,      => patch 2/3: the same patch-id,      => patch 2/3: the same subject, another diff," \
	"... each revision's patch 2 marked: v2's by its patch-id, the others' by title"
check "... v1's line links its patch 2, as b4 does" \
	grep -qxF "      $(link "$(msgid_of v1/v1-0002-part-add-piece-2.patch)")" all.out
check "... stderr: b4's heading" grep -qxF "This patch belongs in the following series:" all.err

# -w: Reply-To (or From), To, Cc, each address once
(cd maint && lore who dig -w HEAD~1)
is "$(cat who.rc) $(tail -n +2 who.out)" "0 "'Pat Replies <pat-replies@example.com>
Foo List <linux-foo@example.org>
Rev Iewer <rev@example.org>
"Last, First" <first@example.org>
Pat Contributor <PAT@example.com>' \
	"-w: exit 0; Reply-To first, then To and Cc, each once, a name with a comma quoted"
check "... stderr: b4's heading" grep -qxF "People originally included in this patch:" who.err

# -w on hostile addresses: terminal-safe, at most 256
git -C maint checkout -q -b crowd-applied base && git -C maint am -q "$TRASH"/crowd/*.patch || exit 1
(cd maint && lore crowd dig -w HEAD)
is "$(cat crowd.rc) $(wc -l <crowd.out) $(grep -c '@example.org>\?$' crowd.out)" "0 257 256" \
	"-w, 303 addresses: exit 0, the link and 256 of them"
check "... the escape made harmless, the rest counted on stderr" eval \
	'grep -qx "\"Evil.\[2J Name\" <evil@example.org>" crowd.out &&
	 ! grep -q "$(printf "\033")" crowd.out &&
	 grep -qxF "Evil? Bidi <bidi@example.org>" crowd.out &&
	 grep -qxF "... and 47 more, not listed" crowd.err'

# -w without a Reply-To
git -C maint checkout -q -b one base && git -C maint am -q "$TRASH"/v1/v1-0001-*.patch || exit 1
(cd maint && lore who1 dig -w HEAD)
is "$(tail -n +2 who1.out)" 'Pat Contributor <pat@example.com>
Foo List <linux-foo@example.org>
Rev Iewer <rev@example.org>
"Last, First" <first@example.org>' \
	"-w, no Reply-To: the From first; rev@EXAMPLE.org is rev@example.org"

# the date bound: v1's patch 1 was sent again as v4 after the commit
is "$(cat who1.out | head -1)" "$(link "$V1P1")" \
	"a commit of v1: v1's patch, not v4's resend with the same patch-id"
(cd maint && lore all1 dig -a HEAD)
is "$(sed -n 's/^  \(v[0-9]\): .*/\1/p' all1.out | tr '\n' ,)" "v1,v2," \
	"... -a: v1 and v2, sent by the commit's day and the next"
check "... the searches asked with d:..20240102" \
	grep -q 'q=patchid%3A[0-9a-f]*%20AND%20d%3A..20240102 ' "$PI_ACCESS_LOG"

# a Link: trailer is preferred over a subject match: another diff,
# the title of every revision's patch 1, the link naming v2's
git -C maint checkout -q -b linked base &&
	printf 'piece 1, as applied\n' >maint/part1.c && git -C maint add part1.c &&
	GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com \
	git -C maint commit -q -m "part: add piece 1" -m "Link: $PI_URL/linux-foo/$V2P1/" || exit 1
(cd maint && lore link dig HEAD)
is "$(cat link.rc) $(cat link.out)" "0 $(link "$V2P1")" \
	"a Link: trailer: exit 0, the linked patch (v2's), not the newest of that title"
git -C maint commit -q --amend -m "part: add piece 1" || exit 1
(cd maint && lore nolink dig HEAD)
check "... without the trailer: the newest patch of that title" \
	grep -qxF "$(link "$V4P1")" nolink.out
(cd maint && lore nolinka dig -a HEAD)
is "$(grep -c '=> patch 1/3: the same subject, another diff' nolinka.out)" 4 \
	"... -a: each revision's patch 1, by its subject"
git -C maint commit -q --amend -m "part: add piece 1" -m "Link: $PI_URL/linux-foo/$V3P1/" || exit 1
(cd maint && lore linka dig -a HEAD)
check "... -a with the trailer: v3's patch 1 marked as the linked one" \
	grep -qxF "      => patch 1/3: named by a Link: trailer" linka.out

# a reworded title and another diff: only the Link: trailer finds it
git -C maint checkout -q -b reworded base &&
	printf 'piece 3, reworded\n' >maint/part3.c && git -C maint add part3.c &&
	git -C maint commit -q -m "part: the third piece, by another name" \
		-m "Link: https://lore.kernel.org/r/$V2P3" || exit 1
(cd maint && lore reworded dig HEAD)
is "$(cat reworded.rc) $(cat reworded.out)" "0 $(link "$V2P3")" \
	"a commit only its Link: trailer finds: that patch (any archive's URL form)"

# nothing found: b4's hint, the Link: trailers to follow
printf 'new\n' >maint/new.c && git -C maint add new.c &&
	git -C maint commit -q -m "new: a commit nobody sent" \
		-m "Link: https://elsewhere.example.net/all/nobody-sent@example.net/" || exit 1
(cd maint && lore none dig HEAD)
is "$(cat none.rc) $(wc -c <none.out) $(cat none.err)" "1 0 lore-am: $(git -C maint rev-parse --short=12 HEAD) is not in the archive: no patch has its patch-id, nor its subject and author
Try following these Link trailers:
  Link: https://elsewhere.example.net/all/nobody-sent@example.net/" \
	"a commit the archive does not have: exit 1, nothing on stdout; the error, then the links to follow"

# -m FILE: the matched patch's thread as mboxrd, read back by git mailsplit
git -C maint checkout -q work
(cd maint && lore save dig -m "$TRASH/saved/v2.mbox" HEAD~1)
is "$(cat save.rc) $(cat save.out)" "0 $(link "$V2P2")" "-m FILE: exit 0, the link on stdout still"
mkdir split && git mailsplit -osplit saved/v2.mbox >/dev/null 2>&1
is "$(ls split | wc -l)" 4 "... git mailsplit reads its four messages back"
check "... v2's cover letter and patches, in thread order" eval \
	'[ "$(grep -h "^Message-I[dD]:" split/* | sed "s/.*<\(.*\)>.*/\1/" | tr "\n" " ")" = \
	   "$V2C $V2P1 $V2P2 $V2P3 " ]'
check "... as the archive has them" grep -q "^List-Id: <linux-foo.example.org>" split/0001
check "... stderr says where" grep -qF "to $TRASH/saved/v2.mbox" save.err
: >notdir
(cd maint && lore savebad dig -m "$TRASH/notdir/v2.mbox" HEAD~1)
is "$(cat savebad.rc)" 74 "-m into a path that cannot be: exit 74"
check "... one error line naming it, nothing left behind" eval \
	'grep -q "^lore-am: .*notdir" savebad.err && [ ! -s notdir ] && \
	 [ -z "$(ls -A "$TRASH" | grep -v -e "^\.check\.out$" -e "^[a-z0-9]*\.\(out\|err\|rc\)$" -e "^\(all.mbox\|cache\|crowd\|home\|maint\|notdir\|pi\|repo\|saved\|split\|v[1-4]\)$")" ]'

# -C: neither read nor write the cache of fetched threads
rm -rf "$XDG_CACHE_HOME"
(cd maint && lore nocache dig -C HEAD~1)
no_cache_entry && nocache=yes || nocache=no
(cd maint && lore cached dig HEAD~1)
check "-C: the answer, and nothing in the cache, where a run without it keeps the threads" eval \
	'[ "$(cat nocache.out)" = "$(link "$V2P2")" ] && [ $nocache = yes ] && ! no_cache_entry'

# dig's options without the word dig: refused, never ignored
wrong=""
for o in --who --all-series "--commitish HEAD" "--save-mbox $TRASH/x.mbox"; do
	# shellcheck disable=SC2086
	"$LORE_AM" $o -m "$TRASH/none.mbox" x@example.org </dev/null \
		>/dev/null 2>"$TRASH/nodig.err"
	rc=$?
	[ "$rc:$(wc -l <"$TRASH/nodig.err")" = 2:1 ] &&
		grep -q "go with dig" "$TRASH/nodig.err" || wrong="$wrong $o($rc)"
done
is "$wrong" "" "-w, -a, -c, -m's long forms without dig: exit 2, one line"
