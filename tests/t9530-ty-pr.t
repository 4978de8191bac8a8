#!/bin/bash
# lore-am ty for pull requests (b4 pr's SLUG.pr files): lore-am pr writes
# the tracking file b4 pr writes (the same JSON as real b4 pr's for the
# same mail and repository, served by a real git daemon); once the pull
# is merged, lore-am ty -a finds it and writes the mail real `b4 ty -a
# --dry-run` writes from the same file and branch ("Merged, thanks!",
# the merge commit); b4 ty reads our file, we read b4's. A pull taken by
# fast-forward or by its commits (pr -e, then git am) is thanked too,
# with the commits named, its queue entry marked thanked; one not merged is left (-a) or refused (-t); one
# merged by someone else is left by -a, as b4 leaves it. Patchwork's
# states are not built: --pw-set-state refused, pw-accept-state said.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-ty.sh"

[ -x "$(git --exec-path)/git-daemon" ] || skip_all "git daemon not installed"
plan 30

cd "$TRASH" || exit 1
series_repo repo 3 && git -C repo checkout -q main || exit 1
git clone -q --bare repo srv/contrib.git || exit 1
git_daemon SRV "$TRASH/srv" || exit 1
URL="$SRV/contrib.git"
TIP=$(git -C repo rev-parse topic)
data=$HOME/.local/share/b4

(cd repo && git request-pull base "$URL" topic) >request.txt 2>/dev/null
{
	echo "From: Pat Contributor <pat@example.com>"
	echo "To: Test Maintainer <maintainer@example.org>, list@example.org"
	echo 'Cc: "Doe, Jane" <jane@example.com>, bot@ci.example.net'
	echo "Subject: [GIT PULL] part: the feature"
	echo "Date: Wed, 3 Jan 2024 10:00:00 +0000"
	echo "Message-Id: <pr1@example.com>"
	echo "References: <rfc@example.com>"
	echo
	echo "Hi Test,"
	echo
	echo "Please pull the three pieces of the feature."
	echo
	cat request.txt
} >pr.eml
to_mbox pr.mbox pr.eml

# b4 pr first, in its own clone and data folder: the reference file
user_clone b4m || exit 1
(cd b4m && XDG_DATA_HOME=$TRASH/b4data b4 pr <../pr.eml) >b4pr.out 2>&1
check "b4 pr tracks the pull request as TIP.pr" test -s "b4data/b4/$TIP.pr"

user_clone maint || exit 1
git -C maint config b4.email-exclude '*@ci.example.net'
(cd maint && lore_in nopr ../pr.eml pr -m ../pr.mbox)
is "$(cat nopr.rc).$(ls "$data" 2>/dev/null | wc -l)" 0.0 \
	"lore-am pr without lore-am.track: nothing tracked"
git -C maint config lore-am.track true
(cd maint && lore_in pr ../pr.eml pr -m ../pr.mbox)
is "$(cat pr.rc)" 0 "lore-am pr with lore-am.track = true"
check "... tracks it as b4 does: TIP.pr" test -s "$data/$TIP.pr"
check "... and says so" grep -q "^Tracked for the thanks: $data/$TIP.pr" pr.err
is "$(/usr/bin/python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); print("same" if a==b else "%r\n%r" % (a,b))' "$data/$TIP.pr" "b4data/b4/$TIP.pr")" \
	same "... the same record as b4 pr's"

# merged by the maintainer: b4 ty reads our file, we write b4's mail
git -C maint merge -q --no-ff --no-edit FETCH_HEAD || exit 1
MERGE=$(git -C maint rev-parse HEAD)
slug=pat_example_com_git_pull_part_the_feature
(cd maint && "$LORE_AM" ty) 2>list.err
check "ty lists it with its merge commit" \
	grep -q "^       Merged: merge commit ${MERGE:0:12} in main" list.err
(cd maint && b4 ty -a --dry-run -o ../b4out) >b4ty.out 2>&1
want=b4out/$slug.thanks
check "b4 ty -a reads lore-am pr's file and thanks" test -s "$want"
(cd maint && lore_in pw /dev/null ty -a --pw-set-state Accepted)
fails pw 2 "--pw-set-state is not built: lore-am talks to no patchwork; run b4 ty for that" \
	"--pw-set-state: refused in one line, nothing thanked"
git -C maint config b4.pw-accept-state Accepted
(cd maint && "$LORE_AM" ty -a -o ../out) 2>ty.err
is "$?" 0 "lore-am ty -a -o DIR"
check "... it located the pull request" grep -q "^  Located: \[GIT PULL\] part: the feature" ty.err
ty_same "out/$slug.thanks" "$want" "... the same mail as b4 ty's"
check "... Merged, thanks! and the merge commit" eval \
	"grep -q '^Merged, thanks!' out/$slug.thanks &&
	 grep -q '^merge commit: $MERGE' out/$slug.thanks"
is "$(ty_own "out/$slug.thanks")" ok "... its own Message-Id and Date"
check "... b4.pw-accept-state: one line, patchwork not reached" grep -q \
	"^lore-am: warning: pw-accept-state is not built: patchwork keeps its states (b4 ty sets them)$" ty.err
git -C maint config --unset b4.pw-accept-state
check "... the tracking file moved to TIP.pr.sent, as b4 moves it" eval \
	"[ ! -e '$data/$TIP.pr' ] && [ -s '$data/$TIP.pr.sent' ]"

# b4's own file read by lore-am; b4.thanks-pr-template and its variables
cp "b4data/b4/$TIP.pr" "$data/"
printf '%s\n' '# a comment line, left out' 'Pulled ${ref} of ${remote} into ${branch} (${treename}),' \
	'tip ${pr_commit_id}, ${summary}, merge ${merge_commit_id}; $$5 ${nope}' \
	'${quote}' '-- ' '${myname} <${myemail}>' >"$HOME/pr.tpl"
git -C maint config b4.thanks-pr-template '${HOME}/pr.tpl'
(cd maint && b4 ty -t 1 --dry-run -o ../b4tpl) >b4tpl.out 2>&1
(cd maint && "$LORE_AM" ty -t 1 -o ../tpl) 2>tpl.err
is "$?" 0 "b4's TIP.pr thanked with -t 1"
ty_same "tpl/$slug.thanks" "b4tpl/$slug.thanks" \
	"... b4.thanks-pr-template filled as b4 fills it"
check "... with the pull's variables" grep -q \
	"^tip $TIP, merge commit: $MERGE, merge $MERGE; \$5 \${nope}" "tpl/$slug.thanks"
git -C maint config --unset b4.thanks-pr-template
rm -f "$data/$TIP.pr.sent"

# taken by fast-forward: b4 finds no merge; the tip itself is named
user_clone ff || exit 1
git -C ff config lore-am.track true
(cd ff && "$LORE_AM" pr -q -m ../pr.mbox <../pr.eml &&
 git merge -q --ff-only FETCH_HEAD && "$LORE_AM" ty -a -o ../ffout) 2>ff.err
is "$?" 0 "a fast-forward: lore-am ty -a"
check "... thanks with the tip" eval \
	"grep -q '^Merged, thanks!' ffout/$slug.thanks &&
	 grep -q '^commit: $TIP' ffout/$slug.thanks"
rm -f "$data/$TIP.pr.sent"

# the pull's commits applied one by one (pr -e, then git am): each one
# named, as a series' patches are; the queue's entry marked thanked
user_clone pick || exit 1
git -C pick config lore-am.track true
(cd pick && "$LORE_AM" pr -q -m ../pr.mbox <../pr.eml &&
 "$LORE_AM" pr -q -e -m ../pr.mbox <../pr.eml >../pick.mbx && git am -q ../pick.mbx) 2>pick.err
is "$?.$("$LORE_AM" queue | awk '{ print $1 }')" 0.complete \
	"pr -e applied by git am: the queue holds the pull"
(cd pick && "$LORE_AM" ty -a -o ../pickout) 2>>pick.err
is "$?" 0 "... lore-am ty -a"
check "... each commit named" eval \
	"[ \$(grep -c '^      commit: ' pickout/$slug.thanks) = 3 ] &&
	 grep -q '^\[3/3\] part: add piece 3' pickout/$slug.thanks &&
	 grep -q '^      commit: '\$(git -C pick rev-parse HEAD) pickout/$slug.thanks"
is "$("$LORE_AM" queue --state thanked | awk '{ print $1 }')" thanked \
	"... the queue says thanked"
rm -f "$data/$TIP.pr.sent"

# not merged: -a leaves it, -t refuses it in one line
user_clone no || exit 1
git -C no config lore-am.track true
(cd no && "$LORE_AM" pr -q -m ../pr.mbox <../pr.eml)
(cd no && "$LORE_AM" ty -a -o ../noout) 2>no.err
is "$?.$(ls noout 2>/dev/null | wc -l)" 0.0 "not merged: -a thanks nothing"
check "... and says so" grep -q "^  Not merged in main: \[GIT PULL\] part: the feature (not merged in main)" no.err
(cd no && lore_in not /dev/null ty -q -t 1 -o ../noout)
fails not 1 "cannot thank for '\[GIT PULL\] part: the feature': not merged in main" \
	"... -t 1: exit 1, one line"
check "... the tracking file stays" test -e "$data/$TIP.pr"
(cd no && GIT_COMMITTER_EMAIL=other@example.com GIT_AUTHOR_EMAIL=other@example.com \
	git merge -q --no-ff --no-edit FETCH_HEAD && "$LORE_AM" ty -a -o ../noout) 2>other.err
check "a merge by someone else: -a leaves it" eval \
	"grep -q '(merged by other@example.com, not by you)' other.err && test -e '$data/$TIP.pr'"
done_testing
