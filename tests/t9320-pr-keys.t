#!/bin/bash
# The pull request keys: lore-am-pipe's pr action, neomutt's Esc R in the
# pager, aerc's Alt-r and notmuch-emacs' lore-am-pr, on a real [GIT PULL]
# mail written by git request-pull, its repository served by a real git
# daemon on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-net.sh"
. "$(dirname "$0")/lib-keys.sh"

[ -x "$(git --exec-path)/git-daemon" ] || skip_all "git daemon not installed"
plan 6

cd "$TRASH" || exit 1
series_repo repo 2 || exit 1
git clone -q --bare repo srv/contrib.git || exit 1
git_daemon SRV "$TRASH/srv" || exit 1
TIP=$(git -C repo rev-parse topic)
{
	echo "From: Pat Contributor <pat@example.com>"
	echo "Subject: [GIT PULL] part: two pieces"
	echo "Date: Wed, 3 Jan 2024 10:00:00 +0000"
	echo "Message-Id: <pull-1@example.com>"
	echo
	(cd repo && git request-pull base "$SRV/contrib.git" topic 2>/dev/null)
} >pr.eml
to_mbox "$TRASH/thread.mbox" pr.eml
hooks_path
user_clone "$TRASH/u"
lore-am-pipe -r "$TRASH/u" -a "-m $TRASH/thread.mbox" pr <pr.eml \
	>"$TRASH/out" 2>"$TRASH/err"
ok $? "lore-am-pipe pr exits 0"
check "... the shortlog and the tip it checked shown" eval \
	'grep -q "^Pat Contributor (2):" "$TRASH/out" &&
	 grep -q "^Fetched into FETCH_HEAD: ${TIP:0:12} (the tip the mail names)" "$TRASH/out"'
is "$(git -C "$TRASH/u" rev-parse FETCH_HEAD)" "$TIP" "... the pull is in FETCH_HEAD"

# neomutt: Esc R in the pager
if command -v neomutt >/dev/null && command -v tmux >/dev/null; then
	keys_neomutt M-R "Fetched into FETCH_HEAD: ${TIP:0:12}"
	ok $? "neomutt: Esc R in the pager fetches the pull request and says so"
else
	skip "neomutt or tmux not installed"
fi

# aerc: Alt-r on a maildir account holding the mail
if command -v aerc >/dev/null && command -v tmux >/dev/null; then
	keys_aerc M-r "Fetched into FETCH_HEAD: ${TIP:0:12}" 'GIT PULL'
	ok $? "aerc: Alt-r shows the pull request checked in its terminal tab"
else
	skip "aerc or tmux not installed"
fi

# notmuch-emacs: lore-am-pr
if have_notmuch_emacs; then
	out=$(keys_emacs lore-am-pr pull-1@example.com)
	printf '%s\n' "$out" | grep -q "^Fetched into FETCH_HEAD: ${TIP:0:12}" &&
		printf '%s\n' "$out" | grep -q "^status 0$"
	ok $? "notmuch-emacs: lore-am-pr shows the pull request checked in *lore-am*"
else
	skip "notmuch-emacs not installed"
fi
done_testing
