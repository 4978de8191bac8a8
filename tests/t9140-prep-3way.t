#!/bin/bash
# -3, --prep-3way: the blobs git am -3 needs are rebuilt from the patches
# when their hunks hold the whole old file (checked against the blob id),
# so the three-way fallback works in a repository that never had them;
# the files that cannot be prepared are named.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 11

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 sed -i 's/^line 5$/line five/' file.c && git commit -qam "file: five")
# whole-file context: the patch shows every line of the old file.c
(cd "$TRASH/repo" && git format-patch -q --thread -U20 -o "$TRASH/whole" base..topic)
(cd "$TRASH/repo" && git format-patch -q --thread -o "$TRASH/part" base..topic)
to_mbox "$TRASH/whole.mbox" "$TRASH"/whole/*.patch
to_mbox "$TRASH/part.mbox" "$TRASH"/part/*.patch
wid=$(msgid_of "$TRASH"/whole/*.patch)
pid=$(msgid_of "$TRASH"/part/*.patch)
pre=$(git -C "$TRASH/repo" rev-parse base:file.c)

# the user's repository never had that file.c: line 2 differs
user() {
	rm -rf "$1" && git init -q "$1" &&
	(cd "$1" && printf 'line %s\n' 1 two 3 4 5 6 7 8 9 10 >file.c &&
	 git add file.c && git commit -qm "their base")
}
user "$TRASH/u"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/whole.mbox" -3 "$wid" >/dev/null 2>"$TRASH/err")
ok $? "-3 exits 0"
check "the missing blob is rebuilt" grep -qx -- "-3: 1 pre-image blob missing, 1 rebuilt from the patches" "$TRASH/err"
is "$(git -C "$TRASH/u" cat-file -t "$pre")" blob "the blob is now in the repository"
is "$(git -C "$TRASH/u" cat-file -p "$pre" | git hash-object --stdin)" "$pre" "with the right content"

user "$TRASH/u2"
(cd "$TRASH/u2" && "$LORE_AM" -m "$TRASH/whole.mbox" --apply "$wid" >/dev/null 2>&1)
is $? 1 "without -3 the patch does not apply there"
(cd "$TRASH/u2" && "$LORE_AM" -m "$TRASH/whole.mbox" --apply -3 "$wid" >/dev/null 2>"$TRASH/err2")
ok $? "with -3 it applies by a three-way merge"
is "$(git -C "$TRASH/u2" show HEAD:file.c | sed -n '2p;5p' | tr '\n' ' ')" "line two line five " \
	"both changes are in the result"
is "$(git -C "$TRASH/u2" worktree list | wc -l)" 1 "no temporary worktree is left"

user "$TRASH/u3"
(cd "$TRASH/u3" && "$LORE_AM" -m "$TRASH/part.mbox" -3 "$pid" >/dev/null 2>"$TRASH/err3")
ok $? "a file that cannot be prepared is no failure"
check "it is named" grep -qx -- "-3: cannot prepare file.c (blob ${pre:0:7} is not here and the patch does not hold the whole file)" "$TRASH/err3"
! git -C "$TRASH/u3" cat-file -e "$pre" 2>/dev/null
ok $? "nothing is written for it"
done_testing
