# lib-thread.sh - helpers for the --thread tests (source after lib.sh).
#
#   mk_msg FILE ID DATE IRT REFS SUBJECT [BODY]
#       Write one message to FILE (LF line ends). IRT and REFS are
#       Message-IDs without brackets ("" for none; REFS space-separated).
#   mboxrd_add MBOX FILE...
#       Append each FILE to MBOX as an mboxrd entry: a From_ line, every
#       ">*From " line quoted once more, a blank line after.
#   maildir_add DIR FILE...
#       Copy each FILE into the maildir DIR (created as needed), unchanged.
#   entry_ids MBOX
#       The Message-IDs in the headers of MBOX's entries, in order, one a
#       line (body lines are not looked at, unlike lib-nm.sh's mbox_ids).
#   split_by_id MBOX DIR
#       git mailsplit --mboxrd MBOX into DIR, each file renamed to its
#       Message-ID and without its From_ line (so that files compare with
#       the messages as sent).
#   small_thread DIR
#       A thread of known shape in DIR/*.eml and DIR/all.mbox:
#         r (10:00)  the cover letter
#         +- b (10:03)  patch 2/2, sent before 1/2
#         |  +- d (10:20)
#         +- a (10:05)  patch 1/2
#            +- c (10:10)
#               +- e (10:15)
#       a and b carry a diff (a complete 2-patch series);
#       plus u (10:01) and its reply u2 (10:02), another thread; all.mbox
#       holds them shuffled: e u c r d u2 a b. Thread order: r b d a c e.

mk_msg() {
	_f=$1 _id=$2 _date=$3 _irt=$4 _refs=$5 _subj=$6
	_body=${7:-"Message $_id.
"}
	{
		printf 'From: Person %s <p-%s@example.org>\n' "${_id%%@*}" "${_id%%@*}"
		printf 'To: list@example.org\n'
		printf 'Subject: %s\n' "$_subj"
		printf 'Date: %s\n' "$_date"
		printf 'Message-ID: <%s>\n' "$_id"
		[ -n "$_irt" ] && printf 'In-Reply-To: <%s>\n' "$_irt"
		if [ -n "$_refs" ]; then
			printf 'References:'
			for _r in $_refs; do printf ' <%s>' "$_r"; done
			printf '\n'
		fi
		printf '\n%s' "$_body"
	} >"$_f"
}

mboxrd_add() {
	_mb=$1; shift
	for _f in "$@"; do
		perl -e '
			local $/; my $m = <STDIN>;
			my ($from) = $m =~ /^From:.*?<([^>\s]+)>/mi;
			$m =~ s/^(>*From )/>$1/mg;
			$m .= "\n" unless $m =~ /\n\z/;
			print "From ", ($from // "MAILER-DAEMON"),
			      " Mon Jan  1 00:00:00 2024\n", $m, "\n";
		' <"$_f" >>"$_mb"
	done
}

maildir_add() {
	_md=$1; shift
	mkdir -p "$_md/cur" "$_md/new" "$_md/tmp"
	for _f in "$@"; do
		cp "$_f" "$_md/cur/$(basename "$_f"):2,"
	done
}

entry_ids() {
	perl -ne '
		if (/^From /) { $h = 1; next }
		$h = 0 if /^\r?$/;
		print "$1\n" if $h && /^Message-ID:\s*<([^>]+)>/i;
	' "$1"
}

split_by_id() {
	mkdir -p "$2" &&
	git mailsplit --mboxrd -o"$2" "$1" >/dev/null &&
	for _f in "$2"/[0-9]*; do
		[ -e "$_f" ] || continue
		_id=$(perl -ne 'if (/^Message-ID:\s*<([^>]+)>/i) { print $1; exit }
				exit if /^\r?$/' "$_f")
		sed '1{/^From /d;}' "$_f" >"$2/$_id" && rm -f "$_f"
	done
}

# a commit message and a one-line diff, so that series.c sees a patch
_patch_body() {
	printf 'widget: %s\n\nSigned-off-by: Person <p@example.org>\n---\n' "$1"
	printf ' widget.c | 1 +\n 1 file changed, 1 insertion(+)\n\n'
	printf 'diff --git a/widget.c b/widget.c\n--- a/widget.c\n+++ b/widget.c\n'
	printf '@@ -1 +1,2 @@\n line\n+%s\n' "$1"
}

small_thread() {
	mkdir -p "$1"
	mk_msg "$1/r.eml" r@example.org "Mon, 1 Jan 2024 10:00:00 +0000" "" "" \
		"[PATCH 0/2] widget: cover"
	mk_msg "$1/a.eml" a@example.org "Mon, 1 Jan 2024 10:05:00 +0000" \
		r@example.org "r@example.org" "[PATCH 1/2] widget: one" \
		"$(_patch_body one)"$'\n'
	mk_msg "$1/b.eml" b@example.org "Mon, 1 Jan 2024 10:03:00 +0000" \
		r@example.org "r@example.org" "[PATCH 2/2] widget: two" \
		"$(_patch_body two)"$'\n'
	mk_msg "$1/c.eml" c@example.org "Mon, 1 Jan 2024 10:10:00 +0000" \
		a@example.org "r@example.org a@example.org" \
		"Re: [PATCH 1/2] widget: one"
	mk_msg "$1/d.eml" d@example.org "Mon, 1 Jan 2024 10:20:00 +0000" \
		b@example.org "r@example.org b@example.org" \
		"Re: [PATCH 2/2] widget: two"
	mk_msg "$1/e.eml" e@example.org "Mon, 1 Jan 2024 10:15:00 +0000" \
		c@example.org "r@example.org a@example.org c@example.org" \
		"Re: [PATCH 1/2] widget: one"
	mk_msg "$1/u.eml" u@example.org "Mon, 1 Jan 2024 10:01:00 +0000" "" "" \
		"another discussion"
	mk_msg "$1/u2.eml" u2@example.org "Mon, 1 Jan 2024 10:02:00 +0000" \
		u@example.org "u@example.org" "Re: another discussion"
	for _m in e u c r d u2 a b; do
		mboxrd_add "$1/all.mbox" "$1/$_m.eml"
	done
}
