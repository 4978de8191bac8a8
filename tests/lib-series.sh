# lib-series.sh - building patch threads for tests out of real git
# repositories and real `git format-patch` output, plus replies written as
# real mail. Source after lib.sh.

# series_repo DIR N [FILE-PREFIX]: a repository with a base commit (tag
# "base") and N commits on branch "topic", each touching its own file,
# written and signed off by Pat Contributor <pat@example.com>.
series_repo() {
	_dir=$1 _n=$2 _pfx=${3:-part}
	make_repo "$_dir" || return 1
	(cd "$_dir" && git checkout -q -b topic &&
	 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com
	 export GIT_COMMITTER_NAME="Pat Contributor" GIT_COMMITTER_EMAIL=pat@example.com
	 i=1 && while [ "$i" -le "$_n" ]; do
		printf 'content %s of %s\n' "$i" "$_pfx" > "$_pfx$i.c" &&
		git add "$_pfx$i.c" &&
		git commit -q -m "$_pfx: add piece $i" \
			-m "This adds piece $i of the feature, with a body line." \
			-m "Signed-off-by: Pat Contributor <pat@example.com>" ||
			return 1
		i=$((i + 1))
	 done)
}

# fmt DIR OUTDIR ARGS...: git format-patch with threading on, from base.
fmt() {
	_dir=$1 _out=$2; shift 2
	# git format-patch makes a mail's Message-ID of its commit and the
	# second it runs in (a cover letter's of the second alone): two runs
	# in one second would give two revisions, or two series, the same ids
	# (the second the last run ended in: the next starts after it)
	while [ "$(date +%s)" = "${_fmt_second:-}" ]; do sleep 0.1; done
	(cd "$_dir" && git format-patch -q --thread=shallow --base=base \
		-o "$_out" "$@" base..HEAD)
	_fmt_rc=$?
	_fmt_second=$(date +%s)
	return $_fmt_rc
}

# msgid_of FILE: the Message-ID (without <>) of a mail file.
msgid_of() {
	sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$1" | head -1
}

# reply OUT PARENT-FILE FROM BODY [EXTRA-HEADER...]: a reply to PARENT.
reply() {
	_out=$1 _parent=$2 _from=$3 _body=$4; shift 4
	_pid=$(msgid_of "$_parent")
	_subj=$(sed -n 's/^Subject: //p' "$_parent" | head -1)
	_refs=$(sed -n 's/^References: //p' "$_parent" | head -1)
	_n=$((${_reply_n:-0} + 1)); _reply_n=$_n
	{
		echo "From: $_from"
		echo "Subject: Re: $_subj"
		echo "Date: Tue, 2 Jan 2024 10:$(printf %02d $((_n % 60))):00 +0000"
		echo "Message-Id: <reply-$_n-$$@example.net>"
		echo "In-Reply-To: <$_pid>"
		echo "References: ${_refs:+$_refs }<$_pid>"
		for h in "$@"; do echo "$h"; done
		echo
		printf '%s\n' "$_body"
	} > "$_out"
}

# to_mbox OUT FILES...: an mbox (mboxo framing) of mail files.
to_mbox() {
	_out=$1; shift
	: > "$_out"
	for f in "$@"; do
		case $(head -c 5 "$f") in
		"From ") cat "$f" ;;
		*) echo "From mbox@z Thu Jan  1 00:00:00 1970"; cat "$f" ;;
		esac >> "$_out"
		# one blank line separates messages
		[ -n "$(tail -c 1 "$f")" ] && echo >> "$_out"
		echo >> "$_out"
	done
}

# apply_into MBOX DIR: clone the test repo's base into DIR and git am MBOX.
apply_into() {
	_mbox=$1 _dst=$2 _src=${3:-$TRASH/repo}
	git clone -q "$_src" "$_dst" && (cd "$_dst" && git checkout -q base -b am &&
		git am -q "$_mbox")
}

# trailers_of DIR REV: the trailer block of a commit's message.
trailers_of() {
	git -C "$1" log -1 --format=%B "$2" | git interpret-trailers --only-trailers
}

# commit_of DIR: the fields of DIR's last commit (author, date, tree,
# message), to compare two commits made by git am
commit_of() {
	git -C "$1" log -1 --date=raw --format='%an <%ae> %ad%n%T%n%B'
}

# spell_series REPO: make_repo REPO, then on its branch topic the series
# "file: spell out two", "new: add new.c"; the patches in $TRASH/p, the
# thread in $TRASH/thread.mbox, the first patch's Message-ID in $id
spell_series() {
	make_repo "$1"
	(cd "$1" && git checkout -q -b topic &&
	 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
	 echo new >new.c && git add new.c && git commit -qm "new: add new.c")
	fmt "$1" "$TRASH/p"
	to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
	id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
}

# two_revisions REPO: REPO made (make_repo) with a series sent twice, for
# the range-diff and apply tests: v1 (a, b, c: add ...) as patches in
# $TRASH/p1, v2 in $TRASH/p2 in reply to v1's cover letter ($v1c), c first
# and changed, b dropped; both based on "base". A second apart, so that
# their dates order them.
two_revisions() {
	make_repo "$1" || return 1
	(cd "$1" && _commit() { printf '%s\n' "$2" >"$1" && git add "$1" &&
		git commit -qm "$3"; } &&
	 git checkout -q -b v1 base &&
	 _commit a.c "int a;" "a: add a" && _commit b.c "int b;" "b: add b" &&
	 _commit c.c "$(printf 'int c%s;\n' 1 2 3 4 5 6 7 8)" "c: add c" &&
	 git checkout -q -b v2 base &&
	 _commit c.c "$(printf 'int c%s;\n' 1 2 3 4 5 6 7 8 | sed 's/c3;/c3 = 3;/')" "c: add c" &&
	 _commit a.c "int a;" "a: add a" &&
	 git format-patch -q --thread=shallow --cover-letter --base=base \
		-o "$TRASH/p1" base..v1) || return 1
	v1c=$(msgid_of "$TRASH/p1/0000-cover-letter.patch")
	sleep 1
	(cd "$1" && git format-patch -q --thread=shallow --cover-letter \
		--base=base -v2 --in-reply-to="$v1c" -o "$TRASH/p2" base..v2)
}

# revisions_mbox MBOX: two_revisions' mails in one mbox, v1 then v2.
revisions_mbox() {
	to_mbox "$1" "$TRASH"/p1/*.patch "$TRASH"/p2/*.patch
}

# cover_letter SUBJECT BLURB FILE...: fill in the cover letters that git
# format-patch --cover-letter left as "*** SUBJECT HERE ***" and "*** BLURB
# HERE ***" (sed replacements: "\n" is a line break, no "/").
cover_letter() {
	_subj=$1 _blurb=$2
	shift 2
	sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/$_subj/" \
		-e "s/\*\*\* BLURB HERE \*\*\*/$_blurb/" "$@"
}

# user_clone DIR [START [SRC]]: the maintainer's clone of SRC ($TRASH/repo
# by default) in DIR, made anew: on main, or with START given on a new
# branch "work" at START.
user_clone() {
	rm -rf "$1" && git clone -q "${3:-$TRASH/repo}" "$1" || return 1
	if [ -n "${2:-}" ]; then
		git -C "$1" checkout -q -b work "$2"
	else
		git -C "$1" checkout -q main
	fi
}

# b4_hashes REPO RANGE: b4's own patchwork hash (its Python module) of
# each commit of RANGE in REPO, oldest first, each followed by a space
b4_hashes() {
	for _c in $(git -C "$1" rev-list --reverse "$2"); do
		git -C "$1" diff "$_c~..$_c" |
		/usr/bin/python3 -c "import sys, b4; print(b4.LoreMessage.get_patchwork_hash(sys.stdin.read()))"
	done | tr '\n' ' '
}

# b4_ty REPO OUT: the real `b4 ty --auto --dry-run` in REPO, writing its
# thanks into the folder OUT and what it says into OUT.out; prints the
# path of the first thanks mail (nothing when there is none)
b4_ty() {
	mkdir -p "$2" &&
	(cd "$1" && b4 ty --auto --dry-run -o "$2" >"$2.out" 2>&1)
	ls "$2"/*.thanks 2>/dev/null | head -1
}

# diff_setup: the range-diff tests' start: two revisions in $TRASH/repo,
# their thread in $TRASH/thread.mbox, each revision's am-ready mbox in
# $TRASH/v1.mbx and $TRASH/v2.mbx, a clone in $TRASH/u; sets id (v2's
# 1/N) and defines canon FILE (colours and hashes taken out) and la ARGS
# (lore-am in the clone). Non-zero when a step fails.
diff_setup() {
	two_revisions "$TRASH/repo" >/dev/null 2>&1 || return 1
	revisions_mbox "$TRASH/thread.mbox"
	id=$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")
	user_clone "$TRASH/u" || return 1
	"$LORE_AM" -q -m "$TRASH/thread.mbox" -v 1 "$id" >"$TRASH/v1.mbx" &&
	"$LORE_AM" -q -m "$TRASH/thread.mbox" -v 2 "$id" >"$TRASH/v2.mbx" ||
		return 1
	canon() { sed -E 's/\x1b\[[0-9;]*m//g; s/[0-9a-f]{7,}/H/g' "$1"; }
	la() { (cd "$TRASH/u" && "$LORE_AM" "$@"); }
}

# dig_revision R [FORMAT-PATCH ARGS...]: in $TRASH, revision R (1 to 9) of
# a three-patch series on branch vR of ./repo, made from base: each
# revision's content its own, Pat Contributor's commits dated 2024-01-0R,
# sent as a thread of its own into $TRASH/vR, its cover letter dated that
# day (lore-am dig's tests)
dig_revision() {
	local r=$1
	shift
	(cd "$TRASH/repo" && git checkout -q -b "v$r" base &&
	 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com
	 export GIT_AUTHOR_DATE="2024-01-0$r 10:00:00 +0000"
	 for i in 1 2 3; do
		printf 'piece %s, revision %s\n' "$i" "$r" >"part$i.c" &&
		git add "part$i.c" &&
		git commit -q -m "part: add piece $i" -m "Signed-off-by: Pat Contributor <pat@example.com>"
	 done &&
	 git format-patch -q --thread=shallow --cover-letter -v "$r" "$@" \
		-o "$TRASH/v$r" base..HEAD) || return 1
	cover_letter "part: the feature" "The feature, revision $r." "$TRASH/v$r"/*0000*
	sed -i "s/^Date: .*/Date: Tue, 0$r Jan 2024 10:00:00 +0000/" "$TRASH/v$r"/*0000*
	# format-patch names a cover letter after the second it was made
	sleep 1
}

# topic_series: $TRASH/repo (make_repo) with a branch topic of three
# commits, one changing file.c, one adding new.c, one changing README,
# sent with a cover letter into $TRASH/p and $TRASH/thread.mbox; sets id
# (the first patch's Message-ID) and topic_tree (topic's tree)
topic_series() {
	make_repo "$TRASH/repo" &&
	(cd "$TRASH/repo" && git checkout -q -b topic &&
	 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
	 echo new >new.c && git add new.c && git commit -qm "new: add new.c" &&
	 echo more >>README && git commit -qam "readme: say more") &&
	fmt "$TRASH/repo" "$TRASH/p" --cover-letter &&
	to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch || return 1
	id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
	topic_tree=$(git -C "$TRASH/repo" rev-parse 'topic^{tree}')
}
