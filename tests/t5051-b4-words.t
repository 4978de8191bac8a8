#!/bin/bash
# b4's words and letters as a b4 user types them (issue 25): shazam (-H,
# -M), diff, mbox and am as the first word; -k, -i, -P -1, -v1,
# --guess-lookback, --merge-base, --use-local-mbox, --offline-mode and the
# rfc822msgid: prefix; b4's words lore-am does not do, refused in one line
# naming what to use, never fetched as a Message-ID. Side by side with
# real b4 where Debian's 0.12 has the form.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 60

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/Three pieces/; s/\*\*\* BLURB HERE \*\*\*/Blurb./' \
	"$TRASH"/p/0000-*
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*)
cd "$TRASH" || exit 1
"$LORE_AM" -q -m t.mbox "$id" >plain.mbx
# user DIR: a clone on branch "work" at the series' base
user() { rm -rf "$1" && git clone -q repo "$1" && git -C "$1" checkout -q -b work base; }
# what a branch holds: author, message of each commit, and the tree
holds() { git -C "$1" log --format='%an <%ae>%n%B' "base..$2" && git -C "$1" rev-parse "$2^{tree}"; }
have_b4() { command -v b4 >/dev/null || { skip "b4 not installed"; return 1; }; }

# 1. shazam: --apply, on the current branch, as b4 shazam does it
user u1
(cd u1 && "$LORE_AM" shazam -m ../t.mbox "$id" >../sz.out 2>../sz.err)
is "$?.$(wc -c <sz.out)" "0.0" "shazam ID: exit 0, nothing on stdout"
is "$(git -C u1 rev-list --count base..work)" 3 "shazam: the three patches on the branch"
check "shazam says what it applied" grep -q '^Applied 3 patches onto the current branch' sz.err
if have_b4; then
	user b1
	(cd b1 && b4 -q --offline-mode shazam -m ../t.mbox "$id" >/dev/null 2>&1)
	holds u1 work >sz.la; holds b1 work >sz.b4
	same_file sz.la sz.b4 "shazam: the commits b4 shazam makes"
fi

# 2. shazam -H: FETCH_HEAD, the branch untouched; -M: a merge
user u2
(cd u2 && git commit -q --allow-empty -m later && "$LORE_AM" shazam -H -m ../t.mbox "$id" 2>../h.err)
ok $? "shazam -H: exit 0"
is "$(git -C u2 log -1 --format=%s)" later "shazam -H: the branch is untouched"
is "$(git -C u2 rev-list --count base..FETCH_HEAD)" 3 "shazam -H: FETCH_HEAD holds the series"
if have_b4; then
	user b2
	(cd b2 && git commit -q --allow-empty -m later &&
	 b4 -q --offline-mode shazam -H -m ../t.mbox "$id" >/dev/null 2>&1)
	holds u2 FETCH_HEAD >h.la; holds b2 FETCH_HEAD >h.b4
	same_file h.la h.b4 "shazam -H: the FETCH_HEAD b4 shazam -H leaves"
fi
user u3
(cd u3 && git commit -q --allow-empty -m later &&
 "$LORE_AM" shazam -M -m ../t.mbox "$id" 2>../m.err </dev/null)
ok $? "shazam -M: exit 0"
is "$(git -C u3 rev-list --parents -1 HEAD | wc -w)" 3 "shazam -M: HEAD is a merge"
check "shazam -M: -M is merge here, not save-as-maildir" \
	grep -qx 'Merge patch series "Three pieces"' <(git -C u3 log -1 --format=%B)
user u4
(cd u4 && git commit -q --allow-empty -m later &&
 "$LORE_AM" shazam -H --merge-base base~0 -m ../t.mbox "$id" 2>../mb.err)
is "$?.$(git -C u4 rev-parse FETCH_HEAD~3)" "0.$(git -C repo rev-parse base)" \
	"shazam -H --merge-base: the series on that commit"
check "--merge-base is said" grep -q '^ Base: base~0 (--merge-base)' mb.err
"$LORE_AM" --merge-base base -m t.mbox "$id" >/dev/null 2>mb2.err
is "$?" 2 "--merge-base without -H/-M: exit 2"
check "--merge-base alone says what it goes with" \
	grep -qx 'lore-am: --merge-base goes with --apply=head or --apply=merge (shazam -H or -M)' mb2.err

# 3. am and mbox
"$LORE_AM" -q am -m t.mbox "$id" >am.mbx
same_file am.mbx plain.mbx "lore-am -q am ID: the am job"
"$LORE_AM" -n am -q -m t.mbox "$id" >am2.mbx
same_file am2.mbx plain.mbx "lore-am -n am (b4's -n before the word)"
"$LORE_AM" -q mbox -m t.mbox -o - "$id" >mb.out
"$LORE_AM" -q --thread -m t.mbox -o - "$id" >thr.out
is "$?.$(grep -c '^From ' mb.out)" "0.4" "mbox: the whole thread"
same_file mb.out thr.out "mbox writes what --thread writes"
mkdir -p md/cur md/new md/tmp
"$LORE_AM" -q mbox -f -m t.mbox --maildir md "$id"
"$LORE_AM" -q mbox -f -m t.mbox --maildir md "$id"
is "$?.$(find md/cur md/new -type f | wc -l)" "0.4" "mbox -f --maildir twice: each message once"

# 4. diff: --range-diff, with b4 diff's -v A B
two_revisions "$TRASH/r2" >/dev/null 2>&1
to_mbox "$TRASH/two.mbox" "$TRASH"/p1/*.patch "$TRASH"/p2/*.patch
id2=$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")
git clone -q "$TRASH/r2" r2u
(cd r2u && "$LORE_AM" diff -m ../two.mbox -v 1 2 "$id2" >../d.out 2>../d.err)
ok $? "diff -v 1 2: exit 0"
(cd r2u && "$LORE_AM" --range-diff=1..2 -m ../two.mbox "$id2" >../rd.out 2>/dev/null)
sed 's/[0-9a-f]\{7,\}/H/g' d.out >d.c; sed 's/[0-9a-f]\{7,\}/H/g' rd.out >rd.c
same_file d.c rd.c "diff -v 1 2 is --range-diff=1..2"
check "diff compares v1 with v2" grep -q '^Comparing v1 (3 patches) with v2 (2 patches)' d.err
git -C "$TRASH/r2" format-patch -q --thread --base=base -o "$TRASH/o1" -1 v1~2
o1=$(msgid_of "$TRASH"/o1/*.patch)
sleep 1
git -C "$TRASH/r2" format-patch -q --thread --base=base -v2 --in-reply-to="$o1" -o "$TRASH/o2" -1 v2~1
to_mbox "$TRASH/one.mbox" "$TRASH"/o1/*.patch "$TRASH"/o2/*.patch
(cd r2u && "$LORE_AM" diff -m ../one.mbox "$o1" >/dev/null 2>../d1.err)
check "one patch a revision: 'patch', not 'patches'" \
	grep -q '^Comparing v1 (1 patch) with v2 (1 patch)$' d1.err
"$LORE_AM" diff -m one.mbox two.mbox >dm.out 2>dm.err
is "$?.$(grep -c "^Comparing 'one.mbox' (v1 here" dm.err)" "0.1" \
	"diff -m MBOX1 MBOX2: the two mboxes compared (t5064 has the rest)"

# 5. b4's letters
"$LORE_AM" -q -m t.mbox -v1 "$id" >v1.mbx
same_file v1.mbx plain.mbx "-v1 is -v 1"
"$LORE_AM" -q -m t.mbox -v1 -P-1 "$id" >last.mbx
is "$(grep '^Subject:' last.mbx)" "Subject: [PATCH 3/3] part: add piece 3" "-P-1: the last patch"
"$LORE_AM" -q -m t.mbox -P -1 "$id" >last2.mbx
same_file last2.mbx last.mbx "-P -1: the same"
"$LORE_AM" -q -m t.mbox -P '<3' "$id" >lt3.mbx
is "$(grep -c '^Subject:' lt3.mbx)" 2 "-P '<3': the patches before 3"
if have_b4; then
	git init -q b4r && git -C b4r config b4.attestation-policy off
	(cd b4r && b4 -q -n am -m - -P '<3' -o - "$id" <../t.mbox >../b4-lt3.mbx 2>/dev/null)
	same_file lt3.mbx b4-lt3.mbx "-P '<3': byte for byte what b4 am writes"
fi
"$LORE_AM" -q -m t.mbox -P -4 "$id" >/dev/null 2>p4.err
is "$?" 2 "-P -4 of three patches: exit 2"
"$LORE_AM" -q --use-local-mbox t.mbox "$id" >ulm.mbx
same_file ulm.mbx plain.mbx "--use-local-mbox is -m"
"$LORE_AM" -q --offline-mode -m t.mbox "$id" >off.mbx
same_file off.mbx plain.mbx "--offline-mode is --offline"
"$LORE_AM" -q -m t.mbox "rfc822msgid:$id" >rfc.mbx
same_file rfc.mbx plain.mbx "rfc822msgid:ID is the Message-ID"
"$LORE_AM" -q -m t.mbox -i "$id" >mid.mbx
for f in "$TRASH"/p/000[123]-*; do
	m=$(msgid_of "$f")
	grep -qx "Message-ID: <$m>" mid.mbx || break
done
ok $? "-i: each patch gets a Message-ID: trailer with its own id"
! grep -q '^Link:' mid.mbx
ok $? "-i: no Link: trailer"
"$LORE_AM" -q -m t.mbox -i -l "$id" >/dev/null 2>il.err
is "$?.$(cat il.err)" "2.lore-am: -i (--add-message-id) and -l (--add-link) do not go together: give one" \
	"-i -l: refused, as b4 does"

# -k is --check
git config --global lore-am.am-perpatch-check-cmd "true"
user u5
(cd u5 && "$LORE_AM" -k -m ../t.mbox "$id" >/dev/null 2>../k.err;
 "$LORE_AM" --check -m ../t.mbox "$id" >/dev/null 2>../check.err)
check "-k runs the checks" grep -qx 'Checked 3 patches: 3 clean, 0 with warnings, 0 with errors' k.err
same_file k.err check.err "-k says what --check says"

# --guess-lookback: -g looks that far back
user u6
(cd u6 && git commit -q --allow-empty -m later &&
 sed '/^base-commit:/d' ../t.mbox >../nobase.mbox &&
 GIT_COMMITTER_DATE="2001-01-01T00:00:00" git commit -q --allow-empty -m old &&
 "$LORE_AM" -g --guess-lookback 3 -m ../nobase.mbox "$id" >/dev/null 2>../g.err)
check "-g --guess-lookback 3: named in the answer" grep -q 'of the last 3 days\| Base: [0-9a-f]* (guessed' g.err
"$LORE_AM" --guess-lookback 0 -m t.mbox "$id" >/dev/null 2>gl.err
is "$?" 2 "--guess-lookback 0: exit 2"

# 6. -M: the series as a maildir; -Q: the quilt folder too, as b4 am
"$LORE_AM" -q -M -o out -m t.mbox "$id"
ok $? "-M -o out: exit 0"
mdir=$(ls -d out/*.maildir)
is "$(ls out | sed 's/^.*\././' | tr '\n' ' ')" ".cover .maildir " "-M: NAME.maildir and NAME.cover, no .mbx"
is "$(ls "$mdir"/new | tr '\n' ' ')" \
	"0001_part_add_piece_1.eml 0002_part_add_piece_2.eml 0003_part_add_piece_3.eml " \
	"-M: one file a patch in new/, named as b4 names them"
"$LORE_AM" -q -Q -o out -m t.mbox "$id"
qdir=$(ls -d out/*.patches)
is "$(cat "$qdir/series" | tr '\n' ' ')" \
	"0001_part_add_piece_1.patch 0002_part_add_piece_2.patch 0003_part_add_piece_3.patch " \
	"-Q: the series file names the patches in order"
user uq
(cd uq && while read -r p; do git apply "$TRASH/$qdir/$p" || exit 1; done <"$TRASH/$qdir/series" &&
 git add -A && git diff --cached --quiet HEAD)
is "$?" 1 "-Q: the patches apply in the series file's order"
if have_b4; then
	mkdir b4o && (cd b4r && b4 -q -n am -M -o ../b4o -m ../t.mbox "$id" >/dev/null 2>&1 &&
	 b4 -q -n am -Q -o ../b4o -m ../t.mbox "$id" >/dev/null 2>&1)
	diff -r out b4o >mq.diff 2>&1
	is "$?.$(wc -c <mq.diff)" "0.0" "-M and -Q: file for file, byte for byte what b4 am writes"
fi
"$LORE_AM" -q -Q -o out -m t.mbox "$id" 2>q2.err
is "$?" 2 "-Q again: the folder exists, exit 2"
check "-Q again: not replaced, said" grep -q "exists: not replaced" q2.err
"$LORE_AM" -q -M -o - -m t.mbox "$id" >/dev/null 2>m2.err
is "$?.$(cat m2.err)" "2.lore-am: -M writes files: give -o DIR, not -o -" "-M -o -: refused"
(mkdir here && cd here && "$LORE_AM" -q -M -m ../t.mbox "$id" && ls -d ./*.maildir) >here.out
is "$(wc -l <here.out)" 1 "-M without -o: into the current folder, as b4"
sed 's|^Subject: .*|Subject: [PATCH] ../../Über/x\t`y`;;|' p/0001-* >hostile.eml
"$LORE_AM" -q -M -o hm -m hostile.eml "$(msgid_of hostile.eml)"
names=$(cd hm && find . -type f | sed 's|^\./[^/]*\.maildir/|M/|' | tr '\n' ' ')
is "$?.$names" "0.M/new/0001_über_x_y.eml " "-M, a hostile title: one file, in the maildir, letters and _ only"

# 7. b4's words and flags lore-am does not do: one line, exit 2
for w in ty prep send trailers kr; do
	"$LORE_AM" "$w" "$id" >w.out 2>w.err
	is "$?.$(wc -c <w.out).$(wc -l <w.err)" "2.0.1" "b4 $w: exit 2, one line"
done
XDG_DATA_HOME=$PWD/none "$LORE_AM" ty >w.out 2>w.err
check "lore-am ty: the command, no fetch of <ty>: nothing tracked, said" \
	grep -q '^No thanks necessary' w.err

# 8. --help in the C locale (a mail filter's): "[OPTION...]", not "[OPTION?]"
LC_ALL=C "$LORE_AM" --help >help.out
is "$?.$(sed -n 2p help.out)" "0.  lore-am [OPTION...] [MSGID|URL]" "--help: the usage line in plain ASCII"
check "--help lists -k with --check" grep -q '^  -k, --check ' help.out
done_testing
