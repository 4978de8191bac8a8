#!/bin/bash
# A series that adds symbolic links pointing outside the repository (an
# absolute target, or ".." climbing above the top from the link's folder)
# is applied by git am without a word: lore-am's summary names each patch
# that adds or changes such a link, and still writes (and, with --apply,
# applies) the series as git am would. Links made with real git.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

plan 12

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && ln -s README inside-old && git add inside-old &&
 git commit -qm "an existing link" && git tag -f base >/dev/null &&
 git checkout -q -b topic &&
 mkdir -p doc/deep && ln -s ../../../../home/user/.ssh doc/deep/keys &&
 git add doc && git commit -qm "doc: link the keys" &&
 ln -s ../file.c doc/ok && git add doc/ok && git commit -qm "doc: a link that stays" &&
 ln -sfn /etc/shadow inside-old && git commit -qam "retarget the old link" &&
 rm file.c && ln -s ../outside file.c && git add file.c &&
 git commit -qm "file: now a link")
fmt "$TRASH/repo" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*.patch)

cd "$TRASH" || exit 1
"$LORE_AM" -m thread.mbox "$id" >out.mbox 2>err
ok $? "a series with links out of the tree is written (exit 0)"
grep "symbolic link" err >links
is "$(wc -l <links)" 3 "one line for each link that leaves the tree"
check "an up-and-out link is named with its patch" grep -qx \
	"lore-am: warning: \[PATCH 1/4\] doc: link the keys: adds a symbolic link 'doc/deep/keys' -> '../../../../home/user/.ssh', outside the repository" links
check "a link's new absolute target" grep -q "\[PATCH 3/4\] retarget the old link: adds a symbolic link 'inside-old' -> '/etc/shadow'" links
check "a file made a link" grep -q "\[PATCH 4/4\] file: now a link: adds a symbolic link 'file.c' -> '../outside'" links
! grep -q "doc/ok" links
ok $? "a link that stays inside is not named"
apply_into "$TRASH/out.mbox" "$TRASH/am"
ok $? "git am applies what was written"
is "$(readlink "$TRASH/am/doc/deep/keys")" "../../../../home/user/.ssh" "the link as sent"

"$LORE_AM" -q -m thread.mbox "$id" >/dev/null 2>err.q
is "$(grep -c "symbolic link" err.q)" 3 "-q still says it"

git clone -q "$TRASH/repo" "$TRASH/u" && git -C "$TRASH/u" checkout -q -b work base
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>"$TRASH/err.apply")
ok $? "--apply applies it, as git am does"
is "$(grep -c "symbolic link" "$TRASH/err.apply")" 3 "and the summary names the three"
is "$(git -C "$TRASH/u" rev-parse 'HEAD^{tree}')" "$(git -C "$TRASH/repo" rev-parse 'topic^{tree}')" "the tree is the series'"
