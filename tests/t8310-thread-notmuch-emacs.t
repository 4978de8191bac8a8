#!/bin/bash
# lore-am-thread of notmuch/lore-am.el in the real notmuch-emacs (emacs
# --batch): on a message whose thread the database holds only part of, it
# adds the rest (with lore-am-args as lore-am-save uses them, -l -s
# included) and the notmuch-show buffer then shows the whole thread; when
# the thread cannot be fetched, *lore-am* says why and nothing changes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-nm.sh"

have_notmuch_emacs || skip_all "$WHY_NOT"
plan 7

cd "$TRASH" || exit 1
hooks_path
ln -sf "$SRC_DIR/notmuch/notmuch-lore-thread" "$TRASH/bin/"
small_thread w
nm_init "$TRASH/mail"
maildir_add "$NM_MAIL/inbox" w/c.eml w/u.eml
nm_new || { echo "Bail out! notmuch new fails"; exit 1; }

# in_emacs ARGS: show c in notmuch-show, print the Message-IDs it shows,
# run lore-am-thread with lore-am-args ARGS, print its value, the
# *lore-am* buffer and the Message-IDs shown then
in_emacs() {
	emacs -q --batch -L "$SRC_DIR/notmuch" --eval "(require (quote lore-am))" --eval "
(progn
  (setq lore-am-args \"$1\")
  (notmuch-show \"id:c@example.org\")
  (let ((ids (lambda ()
               (let (l)
                 (notmuch-show-mapc
                  (lambda () (push (notmuch-show-get-message-id t) l)))
                 (mapconcat (function identity) (sort l (function string<)) \" \")))))
    (princ (format \"before: %s\\n\" (funcall ids)))
    (let ((rc (lore-am-thread)))
      (princ (format \"status: %s\\n\" rc))
      (princ (with-current-buffer \"*lore-am*\" (buffer-string)))
      (princ (format \"after: %s\\n\" (funcall ids))))))" 2>&1
}

out=$(in_emacs "-l -s -m $TRASH/w/all.mbox")
printf '%s\n' "$out" | grep -qx 'before: c@example.org'
ok $? "notmuch-show shows the one message of the thread the database has"
printf '%s\n' "$out" | grep -qx 'status: 0'
ok $? "lore-am-thread succeeds, -l -s in lore-am-args notwithstanding"
printf '%s\n' "$out" | grep -qx 'notmuch-lore-thread: 5 new messages added to lore-am, tagged lore-am; 1 were there'
ok $? "... *lore-am* says what it added"
printf '%s\n' "$out" |
	grep -qx 'after: a@example.org b@example.org c@example.org d@example.org e@example.org r@example.org'
ok $? "... and the buffer now shows the whole thread"
is "$(notmuch count tag:lore-am)" 5 "... the new messages tagged lore-am"

# a mailbox lore-am cannot read (a link to itself)
ln -s missing.mbox "$TRASH/missing.mbox"
before=$(find "$NM_MAIL" -type f | sort)
out=$(in_emacs "-m $TRASH/missing.mbox")
printf '%s\n' "$out" | grep -q "^lore-am: cannot read '$TRASH/missing.mbox'" &&
	printf '%s\n' "$out" | grep -qx 'status: 1'
ok $? "when the thread cannot be fetched, *lore-am* says why"
is "$(find "$NM_MAIL" -type f | sort)" "$before" "... and nothing is added"
done_testing
