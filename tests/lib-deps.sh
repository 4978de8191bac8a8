# lib-deps.sh - series that stand on others, for the dependency tests
# (t92xx): real `git format-patch --base` output, each series' Message-IDs
# made its own, prerequisite lines added by hand where git writes none.
# Source after lib.sh and lib-series.sh.

# deps_commit REPO FILE TEXT SUBJECT: one commit adding TEXT to FILE, by
# Pat Contributor, signed off.
deps_commit() {
	(cd "$1" && echo "$3" >>"$2" && git add "$2" &&
	 GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com \
	 git commit -q -m "$4" -m "Signed-off-by: Pat Contributor <pat@example.com>")
}

# deps_series REPO NAME FROM TO TITLE [FORMAT-PATCH ARGS...]: the series
# FROM..TO with a cover letter titled TITLE in $TRASH/NAME/, made with
# --base=base (git writes a prerequisite-patch-id: for each commit of
# base..FROM), its Message-IDs marked with NAME so that no two series
# share one (git names them by time and committer).
deps_series() {
	_r=$1 _n=$2 _from=$3 _to=$4 _t=$5
	shift 5
	rm -rf "$TRASH/$_n"
	(cd "$_r" && git format-patch -q --cover-letter --thread=shallow \
		--base=base -o "$TRASH/$_n" "$@" "$_from..$_to") || return 1
	sed -i -e "/^\(Message-I[dD]\|In-Reply-To\|References\):/s/\.git\./.$_n.git./g" \
		"$TRASH/$_n"/*.patch
	cover_letter "$_t" "The $_n series." "$TRASH/$_n"/*0000-*
}

# deps_cover NAME: the cover letter's file; deps_id NAME: its Message-ID
deps_cover() { ls "$TRASH/$1"/*0000-* | head -1; }
deps_id() { msgid_of "$(deps_cover "$1")"; }

# deps_needs NAME LINE...: add prerequisite lines to NAME's cover letter,
# after its base-commit: line, as b4 writes them.
deps_needs() {
	_f=$(deps_cover "$1")
	shift
	DEPS_LINES=$(printf '%s\n' "$@") perl -i -pe \
		'$_ .= "$ENV{DEPS_LINES}\n" if /^base-commit:/' "$_f"
}

# deps_state REPO: what a refused run must leave as it was
deps_state() {
	(cd "$1" && git rev-parse HEAD && git symbolic-ref -q HEAD &&
	 git status --porcelain && git worktree list --porcelain &&
	 git for-each-ref && ls "$(git rev-parse --git-dir)")
}
