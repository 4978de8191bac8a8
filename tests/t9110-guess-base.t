#!/bin/bash
# -g, --guess-base: without a base-commit the newest recent commit of the
# branches and tags holding every pre-image blob of the series (the
# patches' "index abc..def" lines) is the base; none: said so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 12

make_repo "$TRASH/repo"
(cd "$TRASH/repo" &&
 sed -i 's/^line 5$/line five/' file.c && git commit -qam "file: five" && git tag five &&
 git checkout -q -b topic &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
 echo more >>README && git commit -qam "readme: say more" &&
 echo new >new.c && git add new.c && git commit -qm "new: add new.c")
five=$(git -C "$TRASH/repo" rev-parse five)
# no --base: the series names no base-commit
(cd "$TRASH/repo" && git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p" five..topic)
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")

# the user: main moved on past "five" with work on other files
git clone -q "$TRASH/repo" "$TRASH/u"
(cd "$TRASH/u" && git checkout -q main && echo other >other.c && git add other.c &&
 git commit -qm "other work")
U=$TRASH/u
la() { (cd "$U" && "$LORE_AM" -m "$TRASH/thread.mbox" "$@" 2>&1 >/dev/null); }

out=$(la "$id")
ok $? "without -g lore-am exits 0"
echo "$out" | grep -qx " Base: not specified"
ok $? "no base-commit: not specified"
! echo "$out" | grep -q "git checkout"
ok $? "and no checkout line"

out=$(la -g "$id")
echo "$out" | grep -qx " Base: [0-9a-f]\{40\} (guessed, exact match: all 2 files)"
ok $? "-g: an exact match over the two files the series changes"
guessed=$(echo "$out" | sed -n 's/^ Base: \([0-9a-f]\{40\}\) (guessed.*/\1/p')
is "$(git -C "$TRASH/u" rev-parse "$guessed^{tree}")" "$(git -C "$TRASH/u" rev-parse 'main^{tree}')" \
	"the newest such commit: main, whose other.c the series does not touch"
echo "$out" | grep -q "git checkout -b .* $guessed"
ok $? "with the checkout line"

# a repository where file.c is as the series expects but README is not
U=$TRASH/u2
git init -q "$U"
git -C "$TRASH/repo" show five:file.c >"$U/file.c"
(cd "$U" && echo "another readme" >README && git add . && git commit -qm "elsewhere" &&
 git branch -q -m mine2)
out=$(la -g "$id")
echo "$out" | grep -qx " Base: $(git -C "$U" rev-parse mine2) (best guess, 1 of 2 files matched)"
ok $? "-g: a partial match says how many files matched"

# the series' date is long after every commit: nothing within the lookback
(cd "$TRASH/u" && git config lore-am.guess-lookback 1)
sed 's/^Date: .*/Date: Mon, 1 Jan 2035 10:00:00 +0000/' "$TRASH/thread.mbox" >"$TRASH/late.mbox"
out=$( (cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/late.mbox" -g "$id" 2>&1 >/dev/null))
ok $? "-g that finds nothing still exits 0"
echo "$out" | grep -q "^ Base: failed to guess base (no commit of the last 1 days"
ok $? "not guessable: said so"
! echo "$out" | grep -q "git checkout"
ok $? "and no checkout line"

# --apply=head takes the guessed base
git clone -q "$TRASH/repo" "$TRASH/h"
(cd "$TRASH/h" && git checkout -q main && echo other >other.c && git add other.c && git commit -qm "other work")
(cd "$TRASH/h" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=head "$id" >/dev/null 2>"$TRASH/errh")
ok $? "--apply=head without a base-commit applies on the guessed base"
is "$(git -C "$TRASH/h" rev-parse 'FETCH_HEAD~3')" "$(git -C "$TRASH/h" rev-parse main)" \
	"FETCH_HEAD sits on the guessed base"
done_testing
