#!/bin/bash
# --stable BRANCH... (and lore-am.stable-branches): for each stable
# branch, whether the series applies clean, needs -3, or cannot (the
# commit its Fixes: names is not in that branch), tried in a temporary
# worktree, the user's tree and branches untouched; and a backport mail
# ("commit X upstream.", "[ Upstream commit X ]"): is X in the mainline
# ref. Real git history, tags and stable branches; series made with real
# git format-patch.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 25

R=$TRASH/repo
make_repo "$R"
cd "$R" || exit 1
printf 'line %s\n' a b c d e f g h i j >pool.c
git add pool.c && git commit -qm "mm: add the pool"
git tag -a v6.1 -m v6.1 && git branch linux-6.1.y
sed -i 's/^line b$/line B/' pool.c && git commit -qam "mm: grow the pool"
grow=$(git rev-parse HEAD)
git tag -a v6.6 -m v6.6 && git branch linux-6.6.y
# the 6.6 branch has its own fix in the lines around the one the series
# changes: git am stops there, git am -3 merges it
git checkout -q linux-6.6.y
sed -i 's/^line c$/line c (stable)/' pool.c && git commit -qam "mm: a stable-only fix"
git checkout -q main
echo "int more;" >more.c && git add more.c && git commit -qm "more: later work"
git branch linux-6.7.y
git checkout -q -b topic
sed -i 's/^line e$/line E/' pool.c
git commit -qam "mm: fix the pool" -m "Why." -m "Fixes: ${grow:0:12} (\"mm: grow the pool\")
Cc: stable@vger.kernel.org
Signed-off-by: Test Maintainer <maintainer@example.org>"
git format-patch -q --thread=shallow -o "$TRASH/p" main..topic
git checkout -q main
id=$(msgid_of "$TRASH"/p/0001-*.patch)
before=$(git for-each-ref --format='%(refname) %(objectname)'; git status --porcelain; git worktree list)

"$LORE_AM" -m "$TRASH"/p/*.patch --stable linux-6.7.y --stable linux-6.6.y,linux-6.1.y \
	--stable nosuch "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "exit 0"
check "the mbox is written" grep -q "^Subject: \[PATCH\] mm: fix the pool" "$TRASH/out"
check "a section after the gate's lines" grep -qx "  Stable branches:" "$TRASH/err"
check "a branch that takes it clean: ✓" grep -qx "    ✓ linux-6.7.y: applies clean" "$TRASH/err"
check "one that needs -3: !" grep -qx "    ! linux-6.6.y: needs -3 (git am -3 applies it)" "$TRASH/err"
check "one without the fixed commit: ✗" grep -qx "    ✗ linux-6.1.y: cannot: the fixed commit ${grow:0:12} is not in it" "$TRASH/err"
check "a branch that is not there: ✗" grep -qx "    ✗ nosuch: no such branch here" "$TRASH/err"
after=$(git for-each-ref --format='%(refname) %(objectname)'; git status --porcelain; git worktree list)
is "$after" "$before" "no branch, file or worktree of the user's changed"
is "$(git rev-parse HEAD)" "$(git rev-parse main)" "HEAD where it was"

# lore-am.stable-branches, and the JSON
git config lore-am.stable-branches "linux-6.6.y linux-6.1.y"
"$LORE_AM" --format=json -m "$TRASH"/p/*.patch "$id" >/dev/null 2>"$TRASH/err"
tail -n 1 "$TRASH/err" >"$TRASH/json"
q() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$TRASH/json"; }
is "$(q '[(b["branch"], b["result"]) for b in j["stable"]]')" \
	"[('linux-6.6.y', 'needs-3way'), ('linux-6.1.y', 'cannot')]" \
	"lore-am.stable-branches: the branches, in the JSON"
git config --unset lore-am.stable-branches
"$LORE_AM" -m "$TRASH"/p/*.patch --stable=--output=x "$id" >/dev/null 2>"$TRASH/err"
is $? 2 "a branch name git reads as an option: refused"
check "named" grep -qx "lore-am: --stable: '--output=x' is not a branch name" "$TRASH/err"

# outside a git tree: said once, nothing tried
cd "$TRASH" || exit 1
GIT_CEILING_DIRECTORIES=$TRASH "$LORE_AM" -m "$TRASH"/p/*.patch --stable linux-6.6.y "$id" >/dev/null 2>"$TRASH/err"
ok $? "outside a git tree: exit 0"
check "said" grep -qx "lore-am: --stable: not in a git tree; no branch tried" "$TRASH/err"
cd "$R" || exit 1

# backports: on the 6.6 branch, one of a commit the mainline has, one of
# a commit only a side branch has, one of no commit at all
more=$(git rev-parse main)
git checkout -q -b side main && echo side >side.c && git add side.c &&
	git commit -qm "side: not merged" && side=$(git rev-parse HEAD)
git checkout -q -b port linux-6.6.y
echo x >x.c && git add x.c
git commit -qm "more: later work" -m "commit $more upstream." -m "Why.
Signed-off-by: Test Maintainer <maintainer@example.org>"
echo y >y.c && git add y.c
git commit -qm "side: not merged" -m "[ Upstream commit $side ]" -m "Why.
Signed-off-by: Test Maintainer <maintainer@example.org>"
echo z >z.c && git add z.c
git commit -qm "z: from nowhere" -m "commit 0123456789abcdef0123456789abcdef01234567 upstream." -m "Why.
Signed-off-by: Test Maintainer <maintainer@example.org>"
git format-patch -q --thread=shallow -o "$TRASH/b" linux-6.6.y..port
git checkout -q main
bid=$(msgid_of "$TRASH"/b/0001-*.patch)
to_mbox "$TRASH/b.mbox" "$TRASH"/b/*.patch
"$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
check "no mainline ref (origin/master, master): said" grep -qxF "    ! a backport of ${more:0:12}: no mainline ref to look in (origin/master, master)" "$TRASH/err"
git config lore-am.mainline-ref main
"$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
check "a backport of a mainline commit: ✓" grep -qxF "  ✓ [PATCH 1/3] more: later work (upstream commit ${more:0:12} is in main)" "$TRASH/err"
check "[ Upstream commit X ] of a commit not in the mainline: ✗" grep -qxF "    ✗ a backport of ${side:0:12}, which is not in main" "$TRASH/err"
check "of no commit at all: ✗" grep -qxF "    ✗ a backport of 0123456789abcdef0123456789abcdef01234567, which is no commit in this tree" "$TRASH/err"
git branch -q -m main master
git config --unset lore-am.mainline-ref
"$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
check "master by default" grep -qxF "  ✓ [PATCH 1/3] more: later work (upstream commit ${more:0:12} is in master)" "$TRASH/err"
git branch -q -m master main
git update-ref refs/remotes/origin/master "$more"
"$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
check "origin/master before it" grep -qxF "  ✓ [PATCH 1/3] more: later work (upstream commit ${more:0:12} is in origin/master)" "$TRASH/err"
# three backports: one cat-file for the ids and the refs, one rev-list
# for what the mainline holds; no git process a patch
GIT_TRACE=$TRASH/btrace "$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>&1
is "$(grep -cE "built-in: git (cat-file|rev-list|rev-parse|merge-base)" "$TRASH/btrace")" 2 \
	"three backports: two git processes in all"
printf '[lore-am]\n\tmainline-ref = --all\n' >>.git/config
"$LORE_AM" -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
check "a mainline ref git would read as an option is not asked" grep -qxF "    ! a backport of ${more:0:12}: no mainline ref to look in (--all)" "$TRASH/err"
git config --unset lore-am.mainline-ref
"$LORE_AM" --format=json -m "$TRASH/b.mbox" "$bid" >/dev/null 2>"$TRASH/err"
tail -n 1 "$TRASH/err" >"$TRASH/json"
is "$(q '[[c["result"] for c in p["checks"] if c["check"] == "backport"][0] for p in j["patches"]]')" \
	"['ok', 'fail', 'fail']" "the backport checks in the JSON"

# the gate off: the branches are still tried and said
git config lore-am.gate off
"$LORE_AM" -m "$TRASH"/p/*.patch --stable linux-6.7.y "$id" >/dev/null 2>"$TRASH/err"
check "the gate off: --stable still says its branches" grep -qx "    ✓ linux-6.7.y: applies clean" "$TRASH/err"
! grep -q "^Gate" "$TRASH/err"
ok $? "and no gate lines"
git config --unset lore-am.gate
