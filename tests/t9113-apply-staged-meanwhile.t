#!/bin/bash
# A change staged in the user's repository by another process while the
# series is tried: --apply (and =merge) look at the index and HEAD again
# just before the tree is touched, and refuse in one line, nothing
# touched: the staged change stays as it is, HEAD where it was. Made
# reproducible with the repository's own pre-applypatch hook, which git
# am runs in the temporary worktree, between the precheck and the move:
# it stages an edit of a file the series changes (an edit that the
# series' patch would apply on top of), then one of another file. A
# `git status` meanwhile (an editor's), which writes the index again with
# the same entries, is no reason to refuse.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 15

R=$TRASH/repo
spell_series "$R"
base=$(git -C "$R" rev-parse base)

U=$TRASH/u
# hook CMD: the pre-applypatch hook runs CMD once in the user's tree,
# with git's variables of the temporary worktree taken away
hook() {
	rm -rf "$U" && git clone -q "$R" "$U" && git -C "$U" checkout -q -b work base &&
	cat >"$U/.git/hooks/pre-applypatch" <<EOF
#!/bin/sh
[ -f "$TRASH/done" ] && exit 0
touch "$TRASH/done"
cd "$U" && unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE && $1
EOF
	chmod +x "$U/.git/hooks/pre-applypatch" && rm -f "$TRASH/done"
}
apply() { (cd "$U" && "$LORE_AM" -m "$TRASH/thread.mbox" "$@" "$id" </dev/null >/dev/null 2>"$TRASH/err"); }

hook "sed -i 's/^line 9\$/line nine/' file.c && git add file.c"
apply --apply
is $? 2 "a file of the series staged meanwhile: exit 2"
is "$(grep -c '^lore-am: ' "$TRASH/err"):$(tail -1 "$TRASH/err")" \
	"1:lore-am: --apply: a change was staged while the series was tried; nothing applied" \
	"one line says so"
is "$(git -C "$U" rev-parse HEAD)" "$base" "the branch has not moved"
is "$(git -C "$U" diff --cached | grep '^[-+][a-z]')" "-line 9
+line nine" "the staged change is all the index holds"
is "$(git -C "$U" status --porcelain)" "M  file.c" "and the work tree is as the other process left it"
is "$(git -C "$U" worktree list | wc -l)" 1 "no worktree left"

hook "sed -i 's/^line 9\$/line nine/' file.c && git add file.c"
apply --apply=merge
is $? 2 "--apply=merge: exit 2"
is "$(git -C "$U" rev-parse HEAD)" "$base" "the branch has not moved"
is "$(git -C "$U" status --porcelain)" "M  file.c" "the staged change stays"

hook "echo more >>README && git add README"
apply --apply
is $? 2 "another file staged meanwhile: exit 2 (the precheck refuses any staged change)"
is "$(git -C "$U" status --porcelain)" "M  README" "that change stays staged"

hook "git commit -q --allow-empty -m meanwhile"
apply --apply
is $? 1 "a commit made meanwhile: exit 1"
check "HEAD moved, said" grep -q "HEAD moved while the series was tried; nothing applied" "$TRASH/err"
is "$(git -C "$U" log -1 --format=%s)" "meanwhile" "that commit stays the tip"

hook "touch file.c && git status --porcelain"
apply --apply
is $? 0 "the index written again by git status meanwhile: applied (exit 0)"
done_testing
