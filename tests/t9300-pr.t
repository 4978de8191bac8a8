#!/bin/bash
# lore-am pr: a [GIT PULL] mail written by real git request-pull, its
# repository served by a real git daemon on 127.0.0.1; the maintainer's
# clone fetches it into FETCH_HEAD. A good pull, a pull whose tip is not
# the one the mail names, an already merged pull, a hostile URL, and
# --explode read back by git am with the thread's trailers.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-net.sh"

[ -x "$(git --exec-path)/git-daemon" ] || skip_all "git daemon not installed"
plan 37

cd "$TRASH" || exit 1
series_repo repo 3 || exit 1
git clone -q --bare repo srv/contrib.git || exit 1
git_daemon SRV "$TRASH/srv" || exit 1
URL="$SRV/contrib.git"
TIP=$(git -C repo rev-parse topic)

# pr_mail OUT ID BODY-FILE: the pull request as a mail
pr_mail() {
	{
		echo "From: Pat Contributor <pat@example.com>"
		echo "To: Test Maintainer <maintainer@example.org>"
		echo "Subject: [GIT PULL] part: the feature"
		echo "Date: Wed, 3 Jan 2024 10:00:00 +0000"
		echo "Message-Id: <$2>"
		echo
		echo "Hi,"
		echo
		cat "$3"
	} >"$1"
}
(cd repo && git request-pull base "$URL" topic) >request.txt 2>/dev/null
grep -q "^  $URL topic" request.txt && grep -q "up to $TIP" request.txt
ok $? "git request-pull wrote the text the tests read"
pr_mail pr.eml pr1@example.com request.txt
to_mbox pr.mbox pr.eml

user_clone maint || exit 1
(cd maint && lore_in good ../pr.eml pr -m ../pr.mbox)
is "$(cat good.rc)" 0 "a good pull: exit 0"
is "$(git -C maint rev-parse FETCH_HEAD)" "$TIP" \
	"... the tip is in FETCH_HEAD"
check "... it says the tip is the one the mail names" \
	grep -q "^Fetched into FETCH_HEAD: ${TIP:0:12} (the tip the mail names)" good.err
check "... and that HEAD does not have it, 3 commits" \
	grep -q "^Not merged into HEAD: 3 commit(s)" good.err
check "... with the shortlog" grep -q "part: add piece 2" good.err
check "... and the diffstat, which matches the mail's" eval \
	'grep -q "3 files changed, 3 insertions" good.err &&
	 grep -q "^The mail.s diffstat matches" good.err'
is "$(wc -c <good.out)" 0 "... nothing on stdout"
# the user's color.ui=always: the diffstat as plain text all the same
git -C maint config color.ui always
(cd maint && lore_in colour ../pr.eml pr -m ../pr.mbox)
git -C maint config --unset color.ui
check "... under color.ui=always, the diffstat's lines uncoloured" eval \
	'grep -q "^ *part1.c *| *1 +$" colour.err && ! grep -q "?\[3" colour.err'

# -b BRANCH (b4 pr -b): the pull checked out as a new branch
user_clone maint8 || exit 1
git -C maint8 config lore-am.attestation-policy check
(cd maint8 && lore_in br ../pr.eml pr -b pulled -m ../pr.mbox)
is "$(cat br.rc):$(git -C maint8 symbolic-ref --short HEAD):$(git -C maint8 rev-parse HEAD)" \
	"0:pulled:$TIP" "-b BRANCH: the new branch at the tip, checked out"
(cd maint8 && lore_in br2 ../pr.eml pr -q -b pulled -m ../pr.mbox)
fails br2 2 "cannot check the pull out as branch 'pulled': fatal: a branch named 'pulled' already exists" \
	"... a branch of that name already: exit 2, one line"
(cd maint8 && lore_in br3 ../pr.eml pr -q -b a -b b -m ../pr.mbox)
fails br3 2 "pr takes one -b BRANCH" "... two -b: refused"
(cd maint8 && lore_in br4 ../pr.eml pr -q -b -x -m ../pr.mbox)
fails br4 2 "pr -b: '-x' cannot be a branch name; nothing fetched" \
	"... a name that git would take for an option: refused before the fetch"
if command -v b4 >/dev/null; then
	git clone -q --single-branch --no-tags -b main repo b4br || exit 1
	(cd b4br && b4 pr -b pulled <../pr.eml >/dev/null 2>&1)
	is "$(git -C b4br symbolic-ref --short HEAD):$(git -C b4br rev-parse HEAD)" \
		"pulled:$TIP" "b4 pr -b makes the same branch"
else
	skip "b4 not installed"
fi

# a signed-off tag, as pull requests to Linus name them: request-pull
# writes "tags/NAME", git fetch gets the tag, its commit is the tip
git -C repo tag -a -m "part: the feature, tagged" for-linus topic
git -C repo push -q "$TRASH/srv/contrib.git" for-linus || exit 1
(cd repo && git request-pull base "$URL" for-linus) >tag.txt 2>/dev/null
pr_mail tag.eml pr5@example.com tag.txt
to_mbox tag.mbox tag.eml
user_clone maint7 || exit 1
(cd maint7 && lore_in tag ../tag.eml pr -m ../tag.mbox)
check "a tag: request-pull names it tags/for-linus" grep -q "^  $URL tags/for-linus" tag.txt
is "$(cat tag.rc)" 0 "... lore-am pr: exit 0"
is "$(git -C maint7 rev-parse 'FETCH_HEAD^{commit}')" "$TIP" \
	"... the tag's commit is the tip fetched"

# the mail names another tip than the branch has
sed "s/up to $TIP/up to $(git -C repo rev-parse topic~1)/" request.txt >moved.txt
pr_mail moved.eml pr2@example.com moved.txt
to_mbox moved.mbox moved.eml
user_clone maint2 || exit 1
(cd maint2 && lore_in moved ../moved.eml pr -q -m ../moved.mbox)
fails moved 4 "the fetched tip ${TIP:0:12} is not the commit the mail names" \
	"a tip that is not the mail's: exit 4, one line"

# the mail's diffstat says something else: a note, not an error
sed 's/ 3 files changed, 3 insertions/ 4 files changed, 9 insertions/' \
	request.txt >stat.txt
pr_mail stat.eml pr3@example.com stat.txt
to_mbox stat.mbox stat.eml
(cd maint && lore_in stat ../stat.eml pr -m ../stat.mbox)
is "$(cat stat.rc)" 0 "a diffstat that differs: exit 0"
check "... a note says it differs" grep -q \
	"^NOTE: the mail's diffstat (4 files, +9 -0) differs from the fetched commits' (3 files, +3 -0)" stat.err

# already merged
git -C maint merge -q --ff-only FETCH_HEAD
(cd maint && lore_in merged /dev/null pr -m ../pr.mbox pr1@example.com)
is "$(cat merged.rc)" 0 "an already merged pull, by its Message-ID: exit 0"
check "... it says HEAD has it" grep -q "^Already merged into HEAD" merged.err

# not a pull request; a URL git must never take
reply reply.eml pr.eml "Rev Iewer <rev@example.org>" \
	"$(printf 'Looks good.\n\nAcked-by: Rev Iewer <rev@example.org>')"
to_mbox thread.mbox pr.eml reply.eml
(cd maint && lore_in notpr ../reply.eml pr -q -m ../thread.mbox)
fails notpr 1 "<reply-1-[0-9]+@example.net> is not a pull request" \
	"a mail that is no pull request: exit 1, one line"
printf '  ext::sh -c touch%% %s/pwned topic\n  file://%s/srv/contrib.git topic\n' \
	"$TRASH" "$TRASH" >evil.txt
pr_mail evil.eml pr4@example.com evil.txt
to_mbox evil.mbox evil.eml
(cd maint && lore_in evil ../evil.eml pr -q -m ../evil.mbox)
fails evil 1 "<pr4@example.com> is not a pull request" \
	"ext:: and file:// URLs are not taken: exit 1"
test ! -e pwned
ok $? "... and nothing ran"

# --explode, read back by git am, with the reply's Acked-by
user_clone maint3 || exit 1
(cd maint3 && lore_in ex ../pr.eml pr -e -m ../thread.mbox)
is "$(cat ex.rc)" 0 "--explode: exit 0"
(cd maint3 && git checkout -q -b am base && git am -q ../ex.out)
ok $? "... git am applies the mbox"
is "$(git -C maint3 rev-parse HEAD^{tree})" "$(git -C repo rev-parse topic^{tree})" \
	"... to the pulled tree"
is "$(git -C maint3 log --format=%s base..HEAD | tac | tr '\n' ,)" \
	"part: add piece 1,part: add piece 2,part: add piece 3," \
	"... as the pulled commits"
is "$(git -C maint3 log --format=%B base..HEAD | grep -c '^Acked-by: Rev Iewer <rev@example.org>$')" 3 \
	"... each with the Acked-by sent to the pull request"

# -e -o DIR: NAME.mbx and NAME.cover, the cover letter the pull request
(cd maint3 && lore_in exo ../pr.eml pr -q -e -o ../exo -n pull -m ../thread.mbox)
check "-e -o DIR: exit 0, pull.mbx and pull.cover written" eval \
	'[ "$(cat exo.rc)" = 0 ] && [ -s exo/pull.mbx ] && [ -s exo/pull.cover ]'
check "... the cover letter is the pull request, its base-commit added" eval \
	'grep -q "^Subject: \[PATCH 0/3\] part: the feature" exo/pull.cover &&
	 grep -q "^base-commit: $(git -C repo rev-parse base)" exo/pull.cover &&
	 grep -q "^  $URL topic" exo/pull.cover'
same_file exo/pull.mbx ex.out "... the mbox is the one stdout got"

# the archive down: the piped pull request is enough to fetch
free_port DEAD || exit 1
user_clone maint4 || exit 1
(cd maint4 && lore_in down ../pr.eml pr -L "http://127.0.0.1:$DEAD/x/%s")
is "$(cat down.rc)" 0 "the archive down, the mail piped in: exit 0"
is "$(git -C maint4 rev-parse FETCH_HEAD)" "$TIP" "... and the pull fetched"

# b4 pr, the reference, on the same mails (b4 0.12 reads the mail on
# stdin and checks the remote's tip with git ls-remote)
if command -v b4 >/dev/null; then
	# a clone without the topic branch: b4 pr stops at a tip it has
	git clone -q --single-branch --no-tags -b main repo maint5 || exit 1
	(cd maint5 && b4 pr <../pr.eml >/dev/null 2>&1)
	is "$?:$(git -C maint5 rev-parse FETCH_HEAD)" "0:$TIP" \
		"b4 pr fetches the same tip into FETCH_HEAD"
	git clone -q --single-branch --no-tags -b main repo maint6 || exit 1
	# b4 0.12 says so and fetches nothing, but exits 0 (lore-am: 4)
	(cd maint6 && b4 pr <../moved.eml >/dev/null 2>../b4moved.err)
	check "b4 pr refuses the moved tip too, and fetches nothing" eval \
		'grep -q "commit-id mismatch" b4moved.err &&
		 ! git -C maint6 rev-parse -q --verify FETCH_HEAD'
else
	skip "b4 not installed"
	skip "b4 not installed"
fi
