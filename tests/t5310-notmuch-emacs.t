#!/bin/bash
# notmuch/lore-am.el in the real notmuch-emacs (emacs --batch): with a
# message shown by notmuch-show, lore-am-save writes the am-ready series
# and lore-am-apply commits it through lore-am --apply, or leaves the
# repository alone on failure or when its work tree is dirty.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

have_notmuch_emacs || skip_all "$WHY_NOT"
plan 10

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
hooks_expected || exit 1
to_maildir "$TRASH/both.mbox" "$TRASH/mail/lists"
export NOTMUCH_CONFIG=$TRASH/notmuch-config
printf '[database]\npath=%s\n[new]\ntags=new\n' "$TRASH/mail" >"$NOTMUCH_CONFIG"
notmuch new --no-hooks >/dev/null 2>&1
repo=$TRASH/repo
git clone -q "$TRASH/src" "$repo" && git -C "$repo" checkout -q -b work base

# in-emacs COMMAND: show patch 2/5 in notmuch-show, run COMMAND there,
# print the *lore-am* buffer and COMMAND's value
in_emacs() {
	emacs -q --batch -L "$SRC_DIR/notmuch" --eval "(require (quote lore-am))" --eval "
(progn
  (setq lore-am-dir \"~/el-patches\"
        lore-am-repo \"$repo\"
        lore-am-args \"-m $TRASH/both.mbox\")
  (notmuch-show \"id:$ONE_P2\")
  (let ((rc ($1)))
    (princ (with-current-buffer \"*lore-am*\" (buffer-string)))
    (princ (format \"\\nstatus %s\\n\" rc))))" 2>&1
}

out=$(in_emacs lore-am-save)
check "lore-am-save writes the am-ready series into lore-am-dir" \
	cmp "$(only_file "$HOME/el-patches" '*.mbx')" "$exp_one"
printf '%s\n' "$out" | grep -q "saved in $HOME/el-patches"
ok $? "... and *lore-am* says where it went"

out=$(in_emacs lore-am-apply)
printf '%s\n' "$out" | grep -q "applied 5 patches to '$repo'"
ok $? "lore-am-apply says the series was applied"
check "... and the repository holds it" git -C "$repo" diff --quiet origin/v1

head=$(git -C "$repo" rev-parse HEAD)
out=$(in_emacs lore-am-apply)
printf '%s\n' "$out" | grep -q '^status 1$'
ok $? "applying it again fails ..."
is "$(git -C "$repo" rev-parse HEAD) $(git -C "$repo" status --porcelain | wc -l)" \
	"$head 0" "... and leaves the repository as it was"
printf '%s\n' "$out" | grep -q '^lore-am: git am failed at patch 0001 ".*": error: '
ok $? "... *lore-am* holds lore-am's line naming the patch, with git's reason"

# a dirty work tree: refused before anything is done
dirty_tree "$repo" dirty
out=$(in_emacs lore-am-apply)
printf '%s\n' "$out" | grep -q '^status 1$'
ok $? "lore-am-apply in a dirty work tree fails"
printf '%s\n' "$out" | grep -q '^lore-am: --apply: the work tree has uncommitted changes'
ok $? "... with lore-am's reason"
is "$(dirty_state "$repo" dirty)" \
	"$(git -C "$repo" rev-parse base) same" "... the branch and the edit are as they were"
done_testing
